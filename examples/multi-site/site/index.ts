import { site } from "./program";

export = site();

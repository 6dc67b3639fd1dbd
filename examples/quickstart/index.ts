import { quickstart } from "./program";

export = quickstart();

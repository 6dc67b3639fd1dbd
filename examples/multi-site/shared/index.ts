import { shared } from "./program";

export = shared();

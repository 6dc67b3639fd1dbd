import { gitops } from "./program";

export = gitops();

// The entry point `pulumi up` runs, as Pulumi's TypeScript template lays it out.
import { plant } from "./plant";

const out = plant();

export const pumpPath = out.pumpPath;
export const appType = out.appType;
export const storedPower = out.storedPower;

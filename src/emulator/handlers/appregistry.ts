/** Rules of the appregistry area: not written yet. */
import type { AreaModule } from "../http";

export const area: AreaModule = { routes: [] };

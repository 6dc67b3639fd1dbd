/** Registers the engine kit's jest matchers (use in `setupFilesAfterEnv` or import at the top of a test file). */
import { registerMatchers } from "./matchers";

registerMatchers();

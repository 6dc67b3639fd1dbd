// @ts-check
/**
 * Fault injection from the page (POST /emulator/faults): a form of rate, statuses, methods, paths,
 * latency, mode and package download faults, which shows the configuration in force when it opens
 * and after each change, and the status the emulator answers.
 */
import { admin } from "../api.js";
import { h, notice } from "../dom.js";
import { describeFaults, errorMessage } from "../format.js";
import { showFaults } from "../live.js";
// The statuses a fault may answer and those it answers unless others are chosen, from the emulator.
import { DEFAULT_FAULT_STATUSES, FAULT_STATUSES } from "../values.js";

/** A checkbox and its label. */
const checkbox = (/** @type {string} */ name, /** @type {string | number} */ value, /** @type {boolean} */ checked) => h("input", { type: "checkbox", name, value, checked });
const labelled = (/** @type {HTMLInputElement} */ input) => h("label", { class: "check" }, input, input.value);

/**
 * The fault panel's form and status. `refresh()` reads the configuration in force (filling the form
 * the first time only, so that what the user types there stays) and says whether it could.
 */
export function faultsPanel() {
  const faultStatus = h("pre", { class: "json fault-status" });
  const rate = h("input", { name: "rate", type: "number", min: 0, max: 1, step: "0.05", value: "0" });
  const statuses = FAULT_STATUSES.map((s) => checkbox("statuses", s, DEFAULT_FAULT_STATUSES.includes(s)));
  const methods = ["GET", "POST"].map((m) => checkbox("methods", m, false));
  const paths = h("input", { name: "paths", type: "text", placeholder: "/api/v4/assets/*" });
  const latency = h("input", { name: "latency_ms", type: "number", min: 0, max: 60000, step: 1, placeholder: "0" });
  const mode = h("select", { name: "mode" }, h("option", { value: "before" }, "before (no effect)"), h("option", { value: "after_apply" }, "after_apply (applied, answer lost)"));
  const packageFailureRate = h("input", { name: "package_failure_rate", type: "number", min: 0, max: 1, step: "0.05", placeholder: "0" });
  const packageMs = h("input", { name: "package_ms", type: "number", min: 0, step: 1, placeholder: "" });
  const checked = (/** @type {HTMLInputElement[]} */ boxes) => boxes.filter((i) => i.checked).map((i) => i.value);

  /** The configuration the form says. */
  function formConfig() {
    /** @type {import("../format.js").FaultConfig} */
    const config = { rate: Number(rate.value), statuses: checked(statuses).map(Number) };
    if (checked(methods).length) config.methods = checked(methods);
    const pathList = paths.value
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (pathList.length) config.paths = pathList;
    if (latency.value) config.latency_ms = Number(latency.value);
    if (mode.value !== "before") config.mode = mode.value;
    if (packageFailureRate.value) config.package_failure_rate = Number(packageFailureRate.value);
    if (packageMs.value) config.package_ms = Number(packageMs.value);
    return config;
  }

  /** The form shows the configuration in force: when the view opens, and after each change from the page. */
  function fillForm(/** @type {import("../format.js").FaultConfig} */ config) {
    rate.value = String(config.rate ?? 0);
    for (const i of statuses) i.checked = (config.statuses ?? DEFAULT_FAULT_STATUSES).includes(Number(i.value));
    for (const i of methods) i.checked = (config.methods ?? []).includes(i.value);
    paths.value = (config.paths ?? []).join(", ");
    latency.value = config.latency_ms ? String(config.latency_ms) : "";
    mode.value = config.mode ?? "before";
    packageFailureRate.value = config.package_failure_rate ? String(config.package_failure_rate) : "";
    packageMs.value = config.package_ms !== undefined ? String(config.package_ms) : "";
  }

  /** Shows the status the emulator answered, in the panel, the form (unless `keepForm`) and the header. */
  function show(/** @type {import("../format.js").FaultStatus} */ status, keepForm = false) {
    faultStatus.textContent = JSON.stringify(status, null, 2);
    if (!keepForm) fillForm(status.config ?? {});
    showFaults(status);
  }

  async function setFaults(/** @type {import("../format.js").FaultConfig} */ config) {
    try {
      const status = await (await admin("faults", { method: "POST", body: JSON.stringify(config) })).json();
      show(status);
      notice(describeFaults(status) || "faults off");
    } catch (err) {
      notice(errorMessage(err), "error");
    }
  }

  const form = h(
    "form",
    {
      class: "faults",
      onsubmit: async (ev) => {
        ev.preventDefault();
        await setFaults(formConfig());
      },
    },
    h("label", {}, "Rate (0–1) ", rate),
    h("fieldset", {}, h("legend", { text: "Statuses" }), statuses.map(labelled)),
    h("fieldset", {}, h("legend", { text: "Methods (none: all)" }), methods.map(labelled)),
    h("label", {}, "Paths (comma-separated, * matches anything; none: all) ", paths),
    h("label", {}, "Latency (ms) ", latency),
    h("label", {}, "Mode ", mode),
    h("label", {}, "Package downloads that fail (0–1) ", packageFailureRate),
    h("label", {}, "Package download time (ms; none: the emulator's) ", packageMs),
    h(
      "div",
      { class: "buttons" },
      h("button", { type: "submit", class: "faults-on" }, "Turn faults on"),
      h("button", { type: "button", class: "faults-off", onclick: () => setFaults({}) }, "Turn faults off"),
    ),
  );

  let shown = false;
  /** @returns {Promise<boolean>} */
  async function refresh() {
    try {
      show(await (await admin("faults")).json(), shown);
      shown = true;
      return true;
    } catch (err) {
      faultStatus.textContent = errorMessage(err);
      return false;
    }
  }

  const el = h(
    "div",
    { class: "panel" },
    h("h3", { text: "Fault injection" }),
    h("p", { class: "hint", text: "Applies to /api/v4 (and the token endpoints only with include_auth); the console's own reads fail too while it is on." }),
    form,
    faultStatus,
  );
  return { el, refresh };
}

// @ts-check
/**
 * The emulator's own features, through the admin endpoints: fault injection, reset (confirmed by a
 * second click), loading a fixture, taking a snapshot, and the identity the page reads as.
 */
import { admin, session, signIn } from "../api.js";
import { errorBox, h, link, notice } from "../dom.js";
import { errorMessage, thousands } from "../format.js";
import { poke } from "../live.js";
import { BUILT_IN_LOGINS } from "../values.js";
import { faultsPanel } from "./faults.js";

/** How long the reset button waits for its second click. */
const RESET_ARMED_MS = 5000;

/** A panel: its heading, a hint, and its controls. */
const panel = (/** @type {string} */ title, /** @type {string} */ hint, /** @type {import("../dom.js").Child[]} */ ...controls) =>
  h("div", { class: "panel" }, h("h3", { text: title }), h("p", { class: "hint", text: hint }), ...controls);

function resetButton() {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let armed;
  const button = h(
    "button",
    {
      type: "button",
      class: "reset danger",
      onclick: async () => {
        if (!armed) {
          button.textContent = "Click again to empty the emulator";
          armed = setTimeout(() => ((armed = undefined), (button.textContent = "Reset")), RESET_ARMED_MS);
          return;
        }
        clearTimeout(armed);
        armed = undefined;
        button.textContent = "Reset";
        try {
          await admin("reset", { method: "POST" });
          notice("the emulator is empty (tokens stay valid)");
          poke();
        } catch (err) {
          notice(errorMessage(err), "error");
        }
      },
    },
    "Reset",
  );
  return button;
}

function seedControls() {
  const result = h("div", { class: "seed-result" });
  const fileInput = h("input", { type: "file", name: "fixture", accept: ".yaml,.yml,.json" });
  const button = h(
    "button",
    {
      type: "button",
      class: "seed",
      onclick: async () => {
        const file = fileInput.files?.[0];
        if (!file) return notice("choose a fixture file first (YAML or JSON, as --seed takes)", "error");
        try {
          const res = await admin("seed", { method: "POST", body: await file.text(), type: "application/yaml" });
          /** @type {{ counts?: Record<string, number>, skipped?: { source: string, seeded_at: string } }} */
          const out = await res.json();
          const counts = Object.entries(out.counts ?? {})
            .map(([k, n]) => `${k} ${n}`)
            .join(", ");
          result.replaceChildren(
            h("p", {
              class: "ok",
              text: out.skipped ? `already loaded (${out.skipped.source}, ${out.skipped.seeded_at}); nothing loaded` : `loaded ${file.name}: ${counts || "no entries"}`,
            }),
          );
          poke();
        } catch (err) {
          result.replaceChildren(errorBox(err));
        }
      },
    },
    "Load fixture",
  );
  return [fileInput, button, result];
}

function snapshotControls() {
  const result = h("div", { class: "snapshot-result" });
  const button = h(
    "button",
    {
      type: "button",
      class: "snapshot",
      onclick: async () => {
        try {
          const yamlText = await (await admin("snapshot")).text();
          const url = URL.createObjectURL(new Blob([yamlText], { type: "application/yaml" }));
          const name = `emulator-snapshot-${new Date().toISOString().replace(/[:.]/g, "-")}.yaml`;
          const lines = yamlText.split("\n");
          const summary = lines
            .slice(
              Math.max(
                0,
                lines.findIndex((l) => l.startsWith("# Summary")),
              ),
            )
            .join("\n");
          result.replaceChildren(
            h("p", {}, link(`Download ${name}`, url, { download: name, class: "download" }), ` (${thousands(yamlText.length)} bytes; Load fixture takes it back)`),
            h("pre", { class: "json", text: summary }),
          );
        } catch (err) {
          result.replaceChildren(errorBox(err));
        }
      },
    },
    "Take a snapshot",
  );
  return [button, result];
}

function signInForm() {
  const who = h(
    "select",
    { name: "who" },
    BUILT_IN_LOGINS.map(({ login: { username }, readOnly }) => h("option", { value: username }, readOnly ? `${username} (read only)` : username)),
    h("option", { value: "" }, "another user…"),
  );
  const builtIn = (/** @type {string} */ username) => BUILT_IN_LOGINS.find((l) => l.login.username === username)?.login;
  who.value = builtIn(session.name) ? session.name : "";
  const username = h("input", { name: "username", type: "text", placeholder: "user e-mail", autocomplete: "off" });
  const password = h("input", { name: "password", type: "password", placeholder: "password", autocomplete: "off" });
  return h(
    "form",
    {
      class: "sign-in",
      onsubmit: async (ev) => {
        ev.preventDefault();
        const user = who.value || username.value.trim();
        try {
          await signIn(builtIn(who.value) ?? { grant_type: "password", username: user, password: password.value, client_id: "svc-cli" });
          password.value = "";
          notice(`signed in as ${user}`);
        } catch (err) {
          notice(errorMessage(err), "error");
        }
      },
    },
    who,
    username,
    password,
    h("button", { type: "submit" }, "Sign in"),
  );
}

/** @returns {import("../live.js").View} */
export function emulatorView() {
  const faults = faultsPanel();
  const el = h(
    "section",
    { class: "view emulator" },
    h("h2", { text: "Emulator" }),
    faults.el,
    panel("Reset", "Empties every record, the audit log and the id sequences; issued tokens keep working.", resetButton()),
    panel("Load a fixture", "A fixture document (the sections --seed takes) into the empty emulator; reset first if it holds records.", ...seedControls()),
    panel("Take a snapshot", "The inventory as a fixture document, as svc-emulator snapshot writes it (no secrets).", ...snapshotControls()),
    panel("Identity", "The console reads the API as a built-in identity, like any client.", signInForm()),
  );
  const refresh = async () => {
    el.dataset.state = (await faults.refresh()) ? "ready" : "error";
  };
  el.dataset.state = "loading";
  refresh();
  return { el, refresh };
}

// Encrypted documents: the reader's password, asked for in the page and sent once to the
// server, which answers a key (a session cookie) that stands for it. The viewer keeps
// neither; it tells the server to forget the keys of this tab when the tab goes.

import { api } from "./api.js";
import { t } from "./i18n.js";

/** The documents this tab unlocked, whose keys the server forgets when the tab goes. */
const unlocked = new Set();

window.addEventListener("pagehide", () => {
  for (const id of unlocked) fetch(api.base(id) + "/unlock", { method: "DELETE", credentials: "same-origin", keepalive: true });
});

/**
 * Asks for document `id`'s password in `container` until the server takes one; resolves
 * then. Wrong passwords and the server's limit on tries are said in words beside the field.
 */
export function askForPassword(id, container) {
  return new Promise((resolve) => {
    const form = document.createElement("form");
    form.className = "password-prompt";
    form.setAttribute("aria-labelledby", "password-title");
    const title = document.createElement("h2");
    title.id = "password-title";
    title.textContent = t("password.title");
    const hint = document.createElement("p");
    hint.textContent = t("password.hint", { document: id });
    const label = document.createElement("label");
    label.textContent = t("password") + " ";
    const field = document.createElement("input");
    field.type = "password";
    field.id = "password-field";
    field.autocomplete = "current-password";
    field.required = true;
    label.append(field);
    const submit = document.createElement("button");
    submit.type = "submit";
    submit.textContent = t("password.open");
    const problem = document.createElement("p");
    problem.className = "password-problem";
    problem.setAttribute("role", "alert");
    form.append(title, hint, label, submit, problem);
    container.append(form);
    field.focus();
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      submit.disabled = true;
      problem.textContent = "";
      try {
        await api.send(api.base(id) + "/unlock", "POST", { password: field.value });
        field.value = "";
        unlocked.add(id);
        form.remove();
        resolve();
      } catch (error) {
        field.value = "";
        field.focus();
        problem.textContent =
          error.code === "wrong-password" ? t("password.wrong")
          : error.status === 429 ? t("password.tooMany")
          : t("password.failed", { message: error.message });
      } finally {
        submit.disabled = false;
      }
    });
  });
}

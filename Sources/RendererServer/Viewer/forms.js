// The document's form, filled in the page: a control over each widget of each field (text
// boxes, check boxes, radio buttons, lists), saved through the API when it changes, with the
// server's checks (read-only fields, options, lengths). A refused value is said in words
// and the control shows the field's value again.
//
// A fill made while the server cannot be reached waits in this browser (offline-store.js's
// outbox) with the values it replaced, is shown at once, and is sent when the network comes
// back (`sendWaitingFills`), in the order made: as it is when the fields still hold the
// values it replaced (or already hold its own), and listed for the reader (`conflicts`) when
// another changed them meanwhile.

import { api, APIError } from "./api.js";
import { collaboration } from "./collaboration.js";
import { showStatus } from "./dom.js";
import { record } from "./history.js";
import { t } from "./i18n.js";
import { layer, place } from "./pages.js";
import { allows, pageViews, state } from "./state.js";

const { all, settled, transaction } = globalThis.offlineStore;

const READ_ONLY = 1;
const REQUIRED = 2;
const MULTILINE = 4096;
const PASSWORD = 8192;
const EDITABLE = 262144;
const MULTI_SELECT = 2097152;

/** Reads the open document's fields and puts their controls on the pages drawn. */
export async function loadForm() {
  const id = state.documentID;
  const fields = await api.json(api.base(id) + "/form").catch(() => []);
  const waiting = await waitingFills(id).catch(() => []);
  if (state.documentID !== id) return;
  for (const entry of waiting) show(fields, entry.values);
  state.formFields = fields;
  pageViews.forEach(drawForm);
}

/** Puts a control over each widget on the page. */
export function drawForm(view) {
  const target = layer(view, "form-layer");
  if (!target) return;
  target.innerHTML = "";
  for (const field of state.formFields) {
    field.widgets.forEach((widget, position) => {
      if (widget.pageIndex !== view.index || !widget.rect) return;
      const control = controlFor(field, widget, position);
      if (!control) return;
      place(control, widget.rect);
      control.classList.add("form-control");
      control.dataset.field = field.name;
      control.setAttribute("aria-label", field.name);
      if (field.flags & REQUIRED) control.setAttribute("aria-required", "true");
      if ((field.flags & READ_ONLY) || !allows("formFilling")) {
        lock(control);
        control.title = t(field.flags & READ_ONLY ? "form.readOnly" : "form.locked");
      }
      target.append(control);
    });
  }
}

/** Makes a control (or the inputs inside it) show its value without taking changes. */
function lock(control) {
  const inputs = control.matches("input, select, textarea") ? [control] : [...control.querySelectorAll("input, select, textarea")];
  for (const input of inputs) {
    const typed = input.tagName === "TEXTAREA" || (input.tagName === "INPUT" && ["text", "password"].includes(input.type));
    if (typed) input.readOnly = true;
    else input.disabled = true;
  }
}

/** The control for one widget of `field`, or null for fields that take no value. */
function controlFor(field, widget, position) {
  const fontSize = Math.max(6, Math.min(widget.rect.size.height * 0.7, 14)) * state.scale + "px";
  switch (field.kind) {
    case "text": {
      const multiline = field.flags & MULTILINE;
      const control = document.createElement(multiline ? "textarea" : "input");
      if (!multiline) control.type = field.flags & PASSWORD ? "password" : "text";
      control.value = field.value || "";
      if (field.maxLength) control.maxLength = field.maxLength;
      control.style.fontSize = fontSize;
      control.addEventListener("change", () => fill({ [field.name]: control.value }));
      return control;
    }
    case "checkbox": {
      const control = document.createElement("input");
      control.type = "checkbox";
      control.checked = field.value === widget.onState;
      control.addEventListener("change", () => fill({ [field.name]: control.checked ? widget.onState : "Off" }));
      return control;
    }
    case "radio": {
      const control = document.createElement("input");
      control.type = "radio";
      control.name = "form-field:" + field.name;
      control.value = widget.onState || String(position);
      control.checked = field.value === widget.onState;
      control.addEventListener("change", () => { if (control.checked) fill({ [field.name]: widget.onState }); });
      return control;
    }
    case "comboBox":
    case "listBox": {
      if (field.kind === "comboBox" && field.flags & EDITABLE) return editableCombo(field, fontSize);
      const control = document.createElement("select");
      if (field.kind === "listBox") {
        control.size = Math.max(2, field.options.length);
        control.multiple = Boolean(field.flags & MULTI_SELECT);
      }
      for (const option of field.options) {
        const element = new Option(option.label, option.value);
        element.selected = field.values.includes(option.value);
        control.add(element);
      }
      if (field.kind === "comboBox" && !field.values.length) control.selectedIndex = -1;
      control.style.fontSize = fontSize;
      control.addEventListener("change", () => {
        const chosen = [...control.selectedOptions].map((option) => option.value);
        fill({ [field.name]: control.multiple ? chosen : (chosen[0] ?? null) });
      });
      return control;
    }
    default:
      return null;
  }
}

/** A combo box whose value can also be typed: a text box with the options as suggestions. */
function editableCombo(field, fontSize) {
  const control = document.createElement("input");
  control.type = "text";
  const list = document.createElement("datalist");
  list.id = "form-options-" + encodeURIComponent(field.name);
  for (const option of field.options) list.append(new Option(option.label, option.value));
  control.setAttribute("list", list.id);
  control.setAttribute("aria-label", field.name);
  control.value = field.value || "";
  control.style.fontSize = fontSize;
  control.addEventListener("change", () => fill({ [field.name]: control.value }));
  // The wrapper is what is placed; the text box fills it.
  const wrapper = document.createElement("span");
  wrapper.className = "form-combo";
  wrapper.append(control, list);
  return wrapper;
}

/** A field's value as a fill gives it: the chosen options of a list box, else its value ("" for none). */
function valueOf(field) {
  return field.kind === "listBox" ? field.values : (field.value ?? "");
}

/** Whether two values of a field are the same (no value and "" are). */
function same(a, b) {
  const plain = (value) => JSON.stringify(Array.isArray(value) ? value : value ?? "");
  return plain(a) === plain(b);
}

/** Puts `values` into `fields` (as the server would answer them), for a fill not yet sent. */
function show(fields, values) {
  for (const field of fields) {
    if (!(field.name in values)) continue;
    const value = values[field.name];
    if (Array.isArray(value)) {
      field.values = value;
      field.value = value[0] ?? null;
    } else {
      field.value = value ?? null;
      field.values = value == null || value === "" ? [] : [value];
    }
  }
}

/** Saves `values`, which Ctrl+Z then takes back to the fields' values before. */
async function fill(values) {
  const before = Object.fromEntries(state.formFields.filter((field) => field.name in values).map((field) => [field.name, valueOf(field)]));
  if (await save(values, before)) record({ undo: () => refill(before, values), redo: () => refill(values, before) });
}

/** Saves `values` again from the history, and shows them in the fields' controls. */
async function refill(values, before) {
  const saved = await save(values, before);
  redrawFields(values);
  return saved;
}

/**
 * Saves `values` (which replace `before`); on refusal says why, shows the fields' values
 * again and returns false. When the server cannot be reached, or fills made before still
 * wait, the fill waits too and is shown as made.
 */
async function save(values, before) {
  const id = state.documentID;
  try {
    if ((await waitingFills(id)).length > 0) return keepFill(id, values, before);
    const changed = await api.send(api.base(id) + "/form", "POST", values);
    if (state.documentID !== id) return false;
    for (const field of changed) {
      const index = state.formFields.findIndex((known) => known.name === field.name);
      if (index >= 0) state.formFields[index] = field;
    }
    // The page images show the new values the next time they are drawn.
    state.revision += 1;
    return true;
  } catch (error) {
    if (state.documentID !== id) return false;
    if (error instanceof APIError && error.code === "unreachable") return keepFill(id, values, before);
    showStatus(t("form.refused", { message: error.message }));
    redrawFields(values);
    return false;
  }
}

/** Keeps a fill made offline in the outbox and shows it; true. */
async function keepFill(documentID, values, before) {
  const entry = { kind: "form", operationID: crypto.randomUUID(), user: collaboration.user, documentID, values, before, made: Date.now() };
  await transaction(["outbox"], "readwrite", (stores) => settled(stores.outbox.add(entry)));
  show(state.formFields, values);
  showStatus(t("offline.kept"));
  return true;
}

/** The fills of document `documentID` made offline in this browser by this reader, in the order made. */
async function waitingFills(documentID) {
  return (await all("outbox")).filter((entry) => entry.kind === "form" && entry.documentID === documentID && entry.user === collaboration.user);
}

/**
 * Sends the fills of document `documentID` made offline, in the order made; resolves to how
 * many were sent and how many were refused. A fill is sent when the fields it changes still
 * hold the values it replaced; one whose fields already hold its values was sent before (its
 * answer lost) and is done; one whose fields another changed meanwhile moves to `conflicts`,
 * with the values they hold now. When the server cannot be reached, what is left waits.
 */
export async function sendWaitingFills(documentID) {
  const counts = { applied: 0, refused: 0 };
  for (const entry of await waitingFills(documentID)) {
    let outcome;
    try {
      const fields = await api.json(api.base(documentID) + "/form");
      const now = Object.fromEntries(fields.filter((field) => field.name in entry.values).map((field) => [field.name, valueOf(field)]));
      const names = Object.keys(entry.values);
      if (names.every((name) => same(now[name], entry.values[name]))) outcome = "sent";
      else if (names.every((name) => same(now[name], entry.before[name]) || same(now[name], entry.values[name]))) {
        await api.send(api.base(documentID) + "/form", "POST", entry.values);
        outcome = "sent";
      } else {
        outcome = { reason: "conflict", message: t("offline.formChanged"), current: now };
      }
    } catch (error) {
      if (error instanceof APIError && error.code === "unreachable") break;
      outcome = { reason: "invalid", message: error.message, current: null };
    }
    await transaction(["outbox", "conflicts"], "readwrite", async (stores) => {
      if (outcome !== "sent") await settled(stores.conflicts.put({ ...entry, ...outcome }));
      await settled(stores.outbox.delete(entry.sequence));
    });
    counts[outcome === "sent" ? "applied" : "refused"] += 1;
  }
  if (counts.applied > 0) state.revision += 1;
  return counts;
}

/** The fills of document `documentID` made offline by this reader that were refused when sent. */
export async function refusedFills(documentID) {
  return (await all("conflicts")).filter((entry) => entry.kind === "form" && entry.documentID === documentID && entry.user === collaboration.user);
}

/** Fills in a refused offline fill's values again, on the values the fields hold now: the reader chose theirs. */
export async function resendFill(conflict) {
  await api.send(api.base(conflict.documentID) + "/form", "POST", conflict.values);
  state.revision += 1;
}

/** Draws again the controls of the pages where the fields named in `values` are. */
function redrawFields(values) {
  for (const view of pageViews) {
    if (state.formFields.some((field) => field.name in values && field.widgets.some((w) => w.pageIndex === view.index))) drawForm(view);
  }
}

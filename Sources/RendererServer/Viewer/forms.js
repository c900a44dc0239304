// The document's form, filled in the page: a control over each widget of each field (text
// boxes, check boxes, radio buttons, lists), saved through the API when it changes, with the
// server's checks (read-only fields, options, lengths). A refused value is said in words
// and the control shows the field's value again.

import { api } from "./api.js";
import { showStatus } from "./dom.js";
import { record } from "./history.js";
import { t } from "./i18n.js";
import { layer, place } from "./pages.js";
import { allows, pageViews, state } from "./state.js";

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
  if (state.documentID !== id) return;
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

/** Saves `values`, which Ctrl+Z then takes back to the fields' values before. */
async function fill(values) {
  const before = Object.fromEntries(state.formFields.filter((field) => field.name in values)
    .map((field) => [field.name, field.kind === "listBox" ? field.values : (field.value ?? "")]));
  if (await save(values)) record({ undo: () => refill(before), redo: () => refill(values) });
}

/** Saves `values` again from the history, and shows them in the fields' controls. */
async function refill(values) {
  const saved = await save(values);
  redrawFields(values);
  return saved;
}

/** Saves `values`; on refusal says why, shows the fields' values again and returns false. */
async function save(values) {
  const id = state.documentID;
  try {
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
    showStatus(t("form.refused", { message: error.message }));
    redrawFields(values);
    return false;
  }
}

/** Draws again the controls of the pages where the fields named in `values` are. */
function redrawFields(values) {
  for (const view of pageViews) {
    if (state.formFields.some((field) => field.name in values && field.widgets.some((w) => w.pageIndex === view.index))) drawForm(view);
  }
}

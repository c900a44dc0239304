// Annotations: drawing them, the editor, and making them with the mouse.

import { api } from "./api.js";
import { arranged, boxOf, drawGrips } from "./arrange.js";
import { collaboration } from "./collaboration.js";
import { $, showStatus } from "./dom.js";
import { quadsBounds } from "./find.js";
import { t } from "./i18n.js";
import { scrollToPage } from "./navigation.js";
import { drawPage, pagePoint } from "./pages.js";
import { isLastStep, record, replaceLastStep } from "./history.js";
import { typeText } from "./free-text.js";
import { syncOffline } from "./offline.js";
import { askForPicture } from "./picture.js";
import { emptyNote, refreshThumbnails } from "./sidebar.js";
import { pageViews, state } from "./state.js";
import { selectionQuads } from "./text-layer.js";
import { start } from "./viewer.js";

export async function loadAnnotations() {
  try {
    state.annotations = collaboration.active
      ? await collaboration.load(state.documentID)
      : await api.json(api.base(state.documentID) + "/annotations");
  } catch (error) {
    state.annotations = [];
    showStatus(error.message);
  }
  pageViews.forEach(drawAnnotations);
  listAnnotations();
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * Draws the page's annotations over it. The file's own are in the page image already: they
 * get an outline shown when selected or hovered over in the list. A layer's (in a
 * collaboration) are drawn as they are: ink as its strokes, lines and polygons through
 * their points, markup over each quad. No shape takes the pointer, so text under an
 * annotation can be selected; a click that selects no text chooses the annotation under
 * it (`annotationAt`).
 */
export function drawAnnotations(view) {
  const svg = view && view.element.querySelector("svg.annotation-layer");
  if (!svg) return;
  svg.innerHTML = "";
  const { isReply } = threads();
  for (const annotation of state.annotations) {
    if (annotation.pageIndex !== view.index || isReply(annotation)) continue;
    const shape = shapeOf(annotation);
    shape.classList.add("annotation");
    if (collaboration.active && collaboration.isLayerOwn(annotation)) {
      shape.classList.add("layer-own");
      shape.style.setProperty("--annotation-color", colorHex(annotation.color) || "#ffd800");
      shape.style.setProperty("--annotation-width", Math.max(1, (annotation.borderWidth || 1) * state.scale) + "px");
    }
    if (collaboration.active && collaboration.isForeign(annotation)) shape.classList.add("foreign");
    if (collaboration.active && collaboration.isPending(annotation)) shape.classList.add("pending");
    shape.dataset.id = annotation.id;
    shape.dataset.kind = annotation.kind;
    if (state.selectedAnnotation && state.selectedAnnotation.id === annotation.id) shape.classList.add("selected");
    const title = document.createElementNS(SVG, "title");
    title.textContent = annotation.kind + (annotation.contents ? ": " + annotation.contents : "");
    shape.append(title);
    // A click given to the shape itself (a script, an assistive technology) chooses it too.
    shape.addEventListener("click", (event) => {
      if (state.tool !== "select") return;
      event.stopPropagation();
      selectAnnotation(annotation);
    });
    svg.append(shape);
  }
  const selected = state.selectedAnnotation;
  if (selected && selected.pageIndex === view.index && !isReply(selected)) drawGrips(svg, selected);
}

/** Whether the reader may change `annotation`: the layer's rules say in a collaboration, else the server. */
function mayChange(annotation) {
  return collaboration.active ? collaboration.mayModify(annotation) : Boolean(state.details && state.details.editable);
}

/** Whether the reader may move and resize `annotation`: one they may change, of a kind the API edits. */
export function mayArrange(annotation) {
  return kindOf(annotation.kind).creatable && mayChange(annotation);
}

/**
 * What the library's table says `kind` is (`/api/annotation-kinds`): how its shape is given
 * and whether the API changes it. A kind the table does not list is given by its rectangle
 * and is read-only.
 */
function kindOf(kind) {
  return (state.annotationKinds && state.annotationKinds[kind]) || { kind, geometry: "rect", creatable: false };
}

/** The run of arrow presses the last arrangement saved belongs to: its key, the annotation before the run, its step. */
let arrangeRun = null;

/**
 * Moves and scales the selected annotation into `box` (points) and saves it; Ctrl+Z takes it
 * back. Saves of one `run` (a key naming the arrow presses on one selection) in a row
 * are one edit: what makes an edit is what the presses are, not how fast they came.
 */
export async function arrangeSelected(box, run = null) {
  const before = state.selectedAnnotation;
  if (!before) return;
  const after = await modifyAnnotation(arranged(before, box));
  if (after) {
    // A save that continues the run the last edit began (arrow presses on this selection,
    // nothing else edited or taken back since) becomes part of that edit.
    const continues = run !== null && arrangeRun !== null && arrangeRun.key === run && isLastStep(arrangeRun.step);
    const first = continues ? arrangeRun.before : before;
    const step = annotationEditStep(first, after);
    if (continues) replaceLastStep(step); else record(step);
    arrangeRun = run === null ? null : { key: run, before: first, step };
    const now = state.annotations.find((held) => held.id === after.id);
    if (now) selectAnnotation(now);
  } else {
    pageViews.forEach(drawAnnotations);
  }
}

/** The SVG that draws `annotation` as it is, in CSS pixels of the page. */
function shapeOf(annotation) {
  const scaled = (p) => p.x * state.scale + "," + p.y * state.scale;
  const element = (name, attributes) => {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    return node;
  };
  const group = element("g", {});
  const points = annotation.points || [];
  const kind = kindOf(annotation.kind);
  if (kind.geometry === "inkPaths" && (annotation.inkPaths || []).length > 0) {
    for (const path of annotation.inkPaths) group.append(element("polyline", { points: path.map(scaled).join(" "), class: "stroke" }));
  } else if ((kind.geometry === "line" || kind.geometry === "vertices") && points.length > 1) {
    // A polygon's outline is closed; a line's and a polyline's are not.
    const closed = annotation.kind === "Polygon" && points.length > 2;
    group.append(element(closed ? "polygon" : "polyline", { points: points.map(scaled).join(" "), class: "stroke" }));
  } else if ((annotation.quads || []).length > 0) {
    for (const quad of annotation.quads) {
      const points = [quad.upperLeft, quad.upperRight, quad.lowerRight, quad.lowerLeft];
      group.append(element("polygon", { points: points.map(scaled).join(" "), class: "area" }));
    }
  } else {
    const box = boxOf(annotation);
    const tag = annotation.kind === "Circle" ? "ellipse" : "rect";
    const attributes = tag === "ellipse"
      ? { cx: (box.x + box.width / 2) * state.scale, cy: (box.y + box.height / 2) * state.scale, rx: box.width / 2 * state.scale, ry: box.height / 2 * state.scale }
      : { x: box.x * state.scale, y: box.y * state.scale, width: Math.max(4, box.width * state.scale), height: Math.max(4, box.height * state.scale) };
    // A shape with an inside of its own (a square, a circle) is drawn as its outline.
    attributes.class = kind.interiorColor ? "stroke" : "area";
    group.append(element(tag, attributes));
  }
  return group;
}

/** The smallest annotation of page `index` whose area holds `point` (in points), if any. */
function annotationAt(index, point) {
  let best = null;
  for (const annotation of state.annotations) {
    if (annotation.pageIndex !== index) continue;
    const boxes = (annotation.quads || []).length > 0 ? annotation.quads.map((q) => quadsBounds([q])) : [boxOf(annotation)];
    for (const box of boxes) {
      const inside = point.x >= box.x - 2 && point.x <= box.x + box.width + 2 && point.y >= box.y - 2 && point.y <= box.y + box.height + 2;
      if (inside && (!best || box.width * box.height < best.area)) best = { annotation, area: box.width * box.height };
    }
  }
  return best && best.annotation;
}

function listAnnotations() {
  const panel = $("annotations");
  panel.innerHTML = "";
  const thread = threads();
  const shown = state.annotations.filter((a) => !thread.isReply(a));
  if (shown.length === 0) return panel.append(emptyNote(t("annotations.none")));
  const list = document.createElement("ul");
  for (const annotation of shown) {
    const item = document.createElement("li");
    const replies = thread.replies(annotation);
    if (replies.length > 0) {
      const sublist = document.createElement("ul");
      sublist.className = "thread";
      for (const reply of replies) {
        const line = document.createElement("li");
        line.textContent = replyText(reply);
        sublist.append(line);
      }
      item.append(sublist);
    }
    const link = document.createElement("button");
    link.type = "button";
    link.className = "entry";
    link.textContent = t("annotation.entry", { page: annotation.pageIndex + 1, kind: annotation.kind }) + (annotation.contents ? ": " + annotation.contents : "")
      + (collaboration.active && annotation.author ? " (" + annotation.author + ")" : "")
      + (collaboration.active && collaboration.isPending(annotation) ? " " + t("offline.pending") : "");
    link.dataset.id = annotation.id;
    if (collaboration.active && collaboration.isForeign(annotation)) item.classList.add("foreign");
    if (collaboration.active && collaboration.isPending(annotation)) item.classList.add("pending");
    link.addEventListener("click", () => {
      scrollToPage(annotation.pageIndex, annotation.rect.origin);
      selectAnnotation(annotation);
    });
    item.prepend(link);
    list.append(item);
  }
  panel.append(list);
}

function selectAnnotation(annotation) {
  state.selectedAnnotation = annotation;
  pageViews.forEach(drawAnnotations);
  $("editor").hidden = false;
  $("editor-kind").textContent = t("annotation.onPage", { kind: annotation.kind, page: annotation.pageIndex + 1 });
  $("editor-color").value = colorHex(annotation.color) || "#ffff00";
  $("editor-color").dataset.shown = $("editor-color").value;
  $("editor-contents").value = annotation.contents || "";
  const style = annotation.kind === "FreeText" ? annotation.textStyle || { fontFamily: "Helvetica", fontSize: 12, color: { red: 0, green: 0, blue: 0 }, alignment: "left" } : null;
  $("editor-text-style").hidden = !style;
  if (style) {
    $("editor-font").value = style.fontFamily;
    $("editor-font-size").value = style.fontSize;
    $("editor-text-color").value = colorHex(style.color);
    $("editor-alignment").value = style.alignment;
  }
  const editable = mayChange(annotation);
  const removable = collaboration.active ? collaboration.mayRemove(annotation) : state.details.editable;
  $("editor-author").textContent = [annotation.author ? t("annotation.by", { author: annotation.author }) : "",
    collaboration.active && !editable ? t("annotation.notYours") : ""].filter(Boolean).join(" ");
  for (const id of ["editor-save", "editor-color", "editor-contents", "editor-font", "editor-font-size", "editor-text-color", "editor-alignment"]) $(id).disabled = !editable;
  $("editor-delete").disabled = !removable;
  showThread(annotation);
}

/**
 * The threads of the annotations held now, read once for a drawing or a list: `isReply(a)`,
 * whether `a` answers another held annotation (a reply is listed in its thread, not drawn),
 * and `replies(root)`, the replies in `root`'s thread, replies to replies too, in page order.
 */
function threads() {
  const ids = new Set(state.annotations.map((annotation) => annotation.id));
  const children = new Map();
  for (const annotation of state.annotations) {
    if (!annotation.inReplyTo || !ids.has(annotation.inReplyTo)) continue;
    if (!children.has(annotation.inReplyTo)) children.set(annotation.inReplyTo, []);
    children.get(annotation.inReplyTo).push(annotation);
  }
  return {
    isReply: (annotation) => Boolean(annotation.inReplyTo) && ids.has(annotation.inReplyTo),
    replies(root) {
      const found = new Set();
      const waiting = [root.id];
      while (waiting.length > 0) {
        for (const child of children.get(waiting.pop()) || []) {
          if (found.has(child)) continue;
          found.add(child);
          waiting.push(child.id);
        }
      }
      return state.annotations.filter((annotation) => annotation !== root && found.has(annotation));
    },
  };
}

/** A reply in words: its author, and its text or the review state it gives. */
function replyText(reply) {
  const who = reply.author ? reply.author + ": " : "";
  return who + (reply.reviewState ? t("thread.stateSet", { state: t("state." + reply.reviewState) }) : (reply.contents || ""));
}

/** Lists the selected annotation's replies in the editor, with what makes another. */
function showThread(annotation) {
  const list = $("editor-replies");
  list.innerHTML = "";
  for (const reply of threads().replies(annotation)) {
    const item = document.createElement("li");
    item.textContent = replyText(reply);
    list.append(item);
  }
  $("editor-reply").value = "";
  $("editor-state").value = "";
  const replying = collaboration.active || state.details.editable;
  for (const id of ["editor-reply", "editor-reply-send", "editor-state"]) $(id).disabled = !replying;
}

/**
 * Answers the selected annotation: with the reply's text, or (`reviewState`) with a review
 * state; a reply is a hidden note of the same page, shown in the thread, not on the page.
 */
export async function replyToSelected(reviewState) {
  const root = state.selectedAnnotation;
  const contents = $("editor-reply").value.trim();
  if (!root || (!reviewState && !contents)) return;
  const reply = {
    kind: "Text", pageIndex: root.pageIndex, flags: 2 | 4, inReplyTo: root.id,
    rect: { origin: { x: root.rect.origin.x + root.rect.size.width, y: root.rect.origin.y }, size: { width: 20, height: 20 } },
  };
  if (reviewState) reply.reviewState = reviewState; else reply.contents = contents;
  await addAnnotation(reply);
  const now = state.annotations.find((held) => held.id === root.id);
  if (now) selectAnnotation(now);
}

export function closeEditor() {
  state.selectedAnnotation = null;
  $("editor").hidden = true;
  pageViews.forEach(drawAnnotations);
}

function colorHex(color) {
  if (!color) return null;
  const part = (v) => Math.round(Math.max(0, Math.min(1, v)) * 255).toString(16).padStart(2, "0");
  return "#" + part(color.red) + part(color.green) + part(color.blue);
}

function hexColor(hex) {
  const value = parseInt(hex.slice(1), 16);
  return { red: ((value >> 16) & 255) / 255, green: ((value >> 8) & 255) / 255, blue: (value & 255) / 255, alpha: 1 };
}

/**
 * The size in points a free text box needs for `text` at `fontSize`: its longest line (on
 * an average Helvetica letter's advance, at most 400 points wide, wrapped past that), each
 * line 1.2 times the size high, and a 4-point margin all round.
 */
export function freeTextSize(text, fontSize) {
  const lines = text.split("\n");
  const advance = fontSize * 0.55;
  const width = Math.min(400, Math.max(40, Math.max(...lines.map((line) => line.length)) * advance + 8));
  const perLine = Math.max(1, Math.floor((width - 8) / advance));
  const rows = lines.reduce((count, line) => count + Math.max(1, Math.ceil(line.length / perLine)), 0);
  return { width, height: rows * fontSize * 1.2 + 8 };
}

export async function saveSelectedAnnotation() {
  const before = state.selectedAnnotation;
  const changed = { ...before, contents: $("editor-contents").value };
  // The colour an annotation lacked stays unset unless the reader chose one (a free text's is its background).
  if (before.color || $("editor-color").value !== $("editor-color").dataset.shown) changed.color = hexColor($("editor-color").value);
  if (before.kind === "FreeText") {
    changed.textStyle = {
      fontFamily: $("editor-font").value, fontSize: Number($("editor-font-size").value) || 12,
      color: hexColor($("editor-text-color").value), alignment: $("editor-alignment").value,
    };
    // The box grows to hold its text at the new size; it never shrinks under the reader.
    const needed = freeTextSize(changed.contents || "", changed.textStyle.fontSize);
    const size = before.rect.size;
    changed.rect = { origin: before.rect.origin, size: { width: Math.max(size.width, needed.width), height: Math.max(size.height, needed.height) } };
  }
  const after = await modifyAnnotation(changed);
  if (after) recordAnnotationEdit(before, after);
  closeEditor();
}

export async function deleteSelectedAnnotation() {
  const annotation = state.selectedAnnotation;
  if (await removeAnnotation(annotation)) recordAnnotationEdit(annotation, null);
  closeEditor();
}

function modifyAnnotation(annotation) {
  const path = api.base(state.documentID) + "/annotations/" + encodeURIComponent(annotation.id);
  return changeAnnotations(
    () => collaboration.active ? collaboration.modify(state.documentID, annotation) : api.send(path, "PUT", annotation), [annotation.pageIndex]);
}

async function removeAnnotation(annotation) {
  const path = api.base(state.documentID) + "/annotations/" + encodeURIComponent(annotation.id);
  const done = await changeAnnotations(
    async () => { await (collaboration.active ? collaboration.remove(state.documentID, annotation) : api.json(path, { method: "DELETE" })); return true; },
    [annotation.pageIndex]);
  return Boolean(done);
}

/** Records an annotation edit for Ctrl+Z (see `annotationEditStep`). */
function recordAnnotationEdit(before, after) {
  record(annotationEditStep(before, after));
}

/**
 * The history step of an annotation edit: `before` and `after` are the annotation before and
 * after it (null where it did not exist). Made again or taken back, an annotation that comes
 * (back) is a new one, with a new identity, which the step follows from then on.
 */
function annotationEditStep(before, after) {
  const sides = { before, after };
  const move = async (from, to) => {
    let made = null;
    if (!sides[from]) {
      const { id, ...fields } = sides[to];
      made = await createAnnotation(fields);
      if (!made) return false;
    } else if (!sides[to]) {
      if (!(await removeAnnotation(sides[from]))) return false;
    } else {
      made = await modifyAnnotation({ ...sides[to], id: sides[from].id });
      if (!made) return false;
    }
    for (const side of ["before", "after"]) if (made && sides[side]) sides[side] = { ...sides[side], id: made.id };
    return true;
  };
  return { undo: () => move("after", "before"), redo: () => move("before", "after") };
}

/**
 * Runs an edit through the API, then redraws the pages it touched and the lists. A layer's
 * edit leaves the file, and so the page images, as they were.
 */
async function changeAnnotations(edit, pages) {
  try {
    const result = await edit();
    await loadAnnotations();
    // The selection follows the annotation as the server now holds it (an undo or a redo
    // changes it behind the selection's back), so that the next arrangement starts from there.
    const selected = state.selectedAnnotation && state.annotations.find((held) => held.id === state.selectedAnnotation.id);
    if (selected) state.selectedAnnotation = selected;
    if (collaboration.active) return result;
    state.revision += 1;
    for (const index of pages) {
      pageViews[index].drawn = null;
      if (pageViews[index].visible) drawPage(pageViews[index]);
    }
    refreshThumbnails(pages);
    return result;
  } catch (error) {
    showStatus(error.message);
    return null;
  }
}

/**
 * Adds a stamp that shows `picture` (a JPEG or PNG file's bytes) and selects it: the server
 * fits it into the stamp's rectangle with its proportions. Ctrl+Z takes it back, and a redo
 * sends the picture again.
 */
export async function addPictureStamp(stamp, picture) {
  let text = "";
  for (let i = 0; i < picture.length; i += 0x8000) text += String.fromCharCode(...picture.subarray(i, i + 0x8000));
  const body = { annotation: stamp, image: btoa(text) };
  const send = () => changeAnnotations(() => api.send(api.base(state.documentID) + "/image-stamps", "POST", body), [stamp.pageIndex]);
  let made = await send();
  if (!made) return;
  setTool("select");
  const shown = state.annotations.find((held) => held.id === made.id);
  if (shown) selectAnnotation(shown);
  record({
    undo: async () => removeAnnotation(made),
    redo: async () => {
      const again = await send();
      if (again) made = again;
      return Boolean(again);
    },
  });
}

/** Makes a new annotation, which Ctrl+Z then takes back; resolves to it as the server keeps it (null when refused). */
export async function addAnnotation(annotation) {
  const made = await createAnnotation(annotation);
  if (made) recordAnnotationEdit(null, made);
  return made || null;
}

function createAnnotation(annotation) {
  return changeAnnotations(
    () => collaboration.active ? collaboration.add(state.documentID, annotation) : api.send(api.base(state.documentID) + "/annotations", "POST", annotation),
    [annotation.pageIndex]);
}

/**
 * Another reader's change of the layer (or "reload" after a lost connection, when the changes
 * made offline are sent first): shown at once.
 */
export function onLayerChange(action, annotation) {
  if (action === "reload") return syncOffline();
  const before = state.annotations.find((held) => held.id === annotation.id);
  // A deleted annotation takes its thread with it, as the layer deleted it.
  const gone = new Set([annotation.id, ...(action === "delete" && before ? threads().replies(before).map((reply) => reply.id) : [])]);
  state.annotations = state.annotations.filter((held) => !gone.has(held.id));
  if (action !== "delete") state.annotations.push(annotation);
  const selected = state.selectedAnnotation;
  if (selected && gone.has(selected.id)) {
    if (action === "delete") closeEditor(); else state.selectedAnnotation = annotation;
  }
  for (const index of new Set([annotation.pageIndex, before ? before.pageIndex : annotation.pageIndex])) {
    if (pageViews[index]) drawAnnotations(pageViews[index]);
  }
  listAnnotations();
}

async function highlightSelection() {
  const quadsByPage = selectionQuads();
  if (!quadsByPage) return showStatus(t("highlight.selectFirst"));
  for (const [pageIndex, boxes] of quadsByPage) {
    const quads = boxes.map((b) => ({
      upperLeft: { x: b.x, y: b.y }, upperRight: { x: b.x + b.width, y: b.y },
      lowerLeft: { x: b.x, y: b.y + b.height }, lowerRight: { x: b.x + b.width, y: b.y + b.height },
    }));
    const bounds = quadsBounds(quads);
    await addAnnotation({
      kind: "Highlight", pageIndex, quads, color: { red: 1, green: 0.9, blue: 0, alpha: 1 },
      rect: { origin: { x: bounds.x, y: bounds.y }, size: { width: bounds.width, height: bounds.height } },
    });
  }
  window.getSelection().removeAllRanges();
  setTool("select");
}

/** Notes, ink and rectangles are drawn with the pointer on the page. */
export function wirePagePointer(view) {
  let draft = null;
  const point = (event) => pagePoint(view, event.clientX, event.clientY);
  // With the select tool, a click that selected no text chooses the annotation under it.
  view.element.addEventListener("click", (event) => {
    if (state.tool !== "select" || state.compare || !window.getSelection().isCollapsed) return;
    const annotation = annotationAt(view.index, point(event));
    if (annotation) selectAnnotation(annotation);
  });
  view.element.addEventListener("pointerdown", (event) => {
    if (!["note", "ink", "rectangle", "picture", "text"].includes(state.tool) || state.compare) return;
    event.preventDefault();
    const start = point(event);
    if (state.tool === "picture") return askForPicture(view.index, start);
    if (state.tool === "text") {
      setTool("select");
      return typeText(view, start);
    }
    if (state.tool === "note") {
      addAnnotation({
        kind: "Text", pageIndex: view.index, iconName: "Note", contents: "",
        color: { red: 1, green: 0.85, blue: 0.2, alpha: 1 },
        rect: { origin: { x: start.x, y: start.y }, size: { width: 20, height: 20 } },
      }).then((created) => { if (created) selectAnnotation(created); });
      setTool("select");
      return;
    }
    view.element.setPointerCapture(event.pointerId);
    const svg = view.element.querySelector("svg.annotation-layer");
    const shape = document.createElementNS("http://www.w3.org/2000/svg", state.tool === "ink" ? "polyline" : "rect");
    shape.classList.add("draft");
    svg.append(shape);
    draft = { start, points: [start], shape };
  });
  view.element.addEventListener("pointermove", (event) => {
    if (!draft) return;
    const current = point(event);
    draft.points.push(current);
    if (state.tool === "ink") {
      draft.shape.setAttribute("points", draft.points.map((p) => p.x * state.scale + "," + p.y * state.scale).join(" "));
    } else {
      const box = boxBetween(draft.start, current);
      draft.shape.setAttribute("x", box.x * state.scale);
      draft.shape.setAttribute("y", box.y * state.scale);
      draft.shape.setAttribute("width", box.width * state.scale);
      draft.shape.setAttribute("height", box.height * state.scale);
    }
  });
  view.element.addEventListener("pointerup", (event) => {
    if (!draft) return;
    const done = draft;
    draft = null;
    done.shape.remove();
    const end = point(event);
    const box = boxBetween(done.start, end);
    const red = { red: 0.85, green: 0.1, blue: 0.1, alpha: 1 };
    if (state.tool === "ink" && done.points.length > 1) {
      const bounds = done.points.reduce((b, p) => boxBetween({ x: Math.min(b.x, p.x), y: Math.min(b.y, p.y) }, { x: Math.max(b.x + b.width, p.x), y: Math.max(b.y + b.height, p.y) }), { x: done.start.x, y: done.start.y, width: 0, height: 0 });
      addAnnotation({ kind: "Ink", pageIndex: view.index, inkPaths: [done.points], color: red, borderWidth: 2, rect: { origin: { x: bounds.x, y: bounds.y }, size: { width: Math.max(1, bounds.width), height: Math.max(1, bounds.height) } } });
    } else if (state.tool === "rectangle" && box.width > 2 && box.height > 2) {
      addAnnotation({ kind: "Square", pageIndex: view.index, color: red, borderWidth: 2, rect: { origin: { x: box.x, y: box.y }, size: { width: box.width, height: box.height } } });
    }
  });
}

function boxBetween(a, b) {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
}

export function setTool(tool) {
  if (tool === "highlight") return highlightSelection();
  state.tool = tool;
  for (const button of document.querySelectorAll("#tools [data-tool]")) {
    button.classList.toggle("active", button.dataset.tool === tool);
    button.setAttribute("aria-pressed", String(button.dataset.tool === tool));
  }
  for (const view of pageViews) view.element.classList.toggle("drawing", tool !== "select" && tool !== "hand");
  $("viewer").classList.toggle("hand", tool === "hand");
}

// Moving and resizing the selected annotation: with the pointer (drag it, or one of its
// corners) and with the keyboard (the arrows move it a point, ten with Shift; with Alt they
// make it wider, narrower, taller or shorter). Each arrangement is one edit, saved like any
// other and taken back by Ctrl+Z.

import { arrangeSelected, mayArrange } from "./annotations.js";
import { afterReplays } from "./history.js";
import { pagePoint } from "./pages.js";
import { pageViews, state } from "./state.js";

const SVG = "http://www.w3.org/2000/svg";
/** How near a corner, in CSS pixels, the pointer takes that corner. */
const GRIP = 8;
/** The smallest side, in points, resizing leaves. */
const SMALLEST = 4;
/** How long after the last arrow key the arrangement is saved, in milliseconds. */
const SETTLE = 350;

/** The arrangement being made (by a drag, or arrow keys until they rest), not yet saved. */
let pending = null;
let settling = null;
/** The arrangement being saved (its annotation's id and box) until the server answers. */
let saving = null;
/** The saves, one after another, each from the annotation as the one before left it. */
let saves = Promise.resolve();

/** The box (x, y, width, height, in points) of an annotation's rectangle. */
export function boxOf(annotation) {
  const rect = annotation.rect;
  return { x: rect.origin.x, y: rect.origin.y, width: rect.size.width, height: rect.size.height };
}

/**
 * `annotation` moved and scaled from its rectangle into `box`: its rectangle and every point
 * of its geometry (quads, ink strokes, line and polygon points) follow.
 */
export function arranged(annotation, box) {
  const from = boxOf(annotation);
  const sx = from.width > 0 ? box.width / from.width : 1;
  const sy = from.height > 0 ? box.height / from.height : 1;
  const map = (p) => ({ x: box.x + (p.x - from.x) * sx, y: box.y + (p.y - from.y) * sy });
  const result = { ...annotation, rect: { origin: { x: box.x, y: box.y }, size: { width: box.width, height: box.height } } };
  if (annotation.quads) {
    result.quads = annotation.quads.map((q) => ({
      upperLeft: map(q.upperLeft), upperRight: map(q.upperRight), lowerLeft: map(q.lowerLeft), lowerRight: map(q.lowerRight),
    }));
  }
  if (annotation.inkPaths) result.inkPaths = annotation.inkPaths.map((path) => path.map(map));
  if (annotation.points) result.points = annotation.points.map(map);
  return result;
}

/** Where `annotation` is shown: the arrangement being made of it, else its rectangle. */
function shownBox(annotation) {
  if (pending && pending.id === annotation.id) return pending.box;
  return saving && saving.id === annotation.id ? saving.box : boxOf(annotation);
}

/** Draws the selected annotation's frame and corner grips into the page's `svg`. */
export function drawGrips(svg, annotation) {
  const box = shownBox(annotation);
  for (const old of svg.querySelectorAll(".arrange")) old.remove();
  if (!mayArrange(annotation)) return;
  const s = state.scale;
  const frame = document.createElementNS(SVG, "rect");
  frame.setAttribute("class", "arrange frame");
  for (const [key, value] of Object.entries({ x: box.x * s, y: box.y * s, width: box.width * s, height: box.height * s })) frame.setAttribute(key, value);
  svg.append(frame);
  for (const [corner, x, y] of corners(box)) {
    const grip = document.createElementNS(SVG, "rect");
    grip.setAttribute("class", "arrange grip");
    grip.dataset.corner = corner;
    grip.setAttribute("x", x * s - 4);
    grip.setAttribute("y", y * s - 4);
    grip.setAttribute("width", 8);
    grip.setAttribute("height", 8);
    svg.append(grip);
  }
}

function corners(box) {
  return [["nw", box.x, box.y], ["ne", box.x + box.width, box.y], ["sw", box.x, box.y + box.height], ["se", box.x + box.width, box.y + box.height]];
}

/** The box a corner's drag makes: from the opposite corner, which stays, to `point`. */
function resized(box, corner, point) {
  const fixedX = corner.includes("w") ? box.x + box.width : box.x;
  const fixedY = corner.includes("n") ? box.y + box.height : box.y;
  const x = corner.includes("w") ? Math.min(point.x, fixedX - SMALLEST) : fixedX;
  const y = corner.includes("n") ? Math.min(point.y, fixedY - SMALLEST) : fixedY;
  const right = corner.includes("e") ? Math.max(point.x, fixedX + SMALLEST) : fixedX;
  const bottom = corner.includes("s") ? Math.max(point.y, fixedY + SMALLEST) : fixedY;
  return { x, y, width: right - x, height: bottom - y };
}

function redraw(index) {
  const view = pageViews[index];
  const svg = view && view.element.querySelector("svg.annotation-layer");
  if (svg && state.selectedAnnotation) drawGrips(svg, state.selectedAnnotation);
}

/** With the select tool, a drag that starts on the selected annotation moves it, and one that starts on a corner resizes it. */
export function wireArranging(view) {
  let drag = null;
  view.element.addEventListener("pointerdown", (event) => {
    const annotation = state.selectedAnnotation;
    if (state.tool !== "select" || state.compare || !annotation || annotation.pageIndex !== view.index || !mayArrange(annotation)) return;
    const start = pagePoint(view, event.clientX, event.clientY);
    const box = shownBox(annotation);
    const near = (x, y) => Math.abs(start.x - x) * state.scale <= GRIP && Math.abs(start.y - y) * state.scale <= GRIP;
    const corner = corners(box).find(([, x, y]) => near(x, y));
    const inside = start.x >= box.x && start.x <= box.x + box.width && start.y >= box.y && start.y <= box.y + box.height;
    if (!corner && !inside) return;
    event.preventDefault();
    view.element.setPointerCapture(event.pointerId);
    drag = { start, box, corner: corner && corner[0], current: box, id: annotation.id };
  });
  view.element.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const point = pagePoint(view, event.clientX, event.clientY);
    drag.current = drag.corner
      ? resized(drag.box, drag.corner, point)
      : { ...drag.box, x: drag.box.x + point.x - drag.start.x, y: drag.box.y + point.y - drag.start.y };
    pending = { id: drag.id, box: drag.current };
    redraw(view.index);
  });
  const end = () => {
    if (!drag) return;
    const done = drag;
    drag = null;
    pending = null;
    const moved = ["x", "y", "width", "height"].some((key) => Math.abs(done.current[key] - done.box[key]) > 0.25);
    if (moved) save(done.id, done.current, null); else redraw(view.index);
  };
  view.element.addEventListener("pointerup", end);
  view.element.addEventListener("pointercancel", end);
}

/**
 * Moves (or with Alt resizes) the selected annotation for an arrow key; returns whether the
 * key was taken. The arrangement is saved when the keys rest; the presses on one annotation in
 * a row, moves and resizes alike, make one edit however slowly they come (another edit or an
 * undo ends the run). A press made while an undo or redo is under way starts from what that
 * leaves.
 */
export function arrangeWithKey(event) {
  const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
  if (!step || !state.selectedAnnotation || event.ctrlKey || event.metaKey || !mayArrange(state.selectedAnnotation)) return false;
  const size = event.shiftKey ? 10 : 1;
  const resize = event.altKey;
  afterReplays(() => {
    const annotation = state.selectedAnnotation;
    if (!annotation || !mayArrange(annotation)) return;
    const box = shownBox(annotation);
    pending = {
      id: annotation.id,
      run: annotation.id,
      box: resize
        ? { ...box, width: Math.max(SMALLEST, box.width + step[0] * size), height: Math.max(SMALLEST, box.height + step[1] * size) }
        : { ...box, x: box.x + step[0] * size, y: box.y + step[1] * size },
    };
    redraw(annotation.pageIndex);
    clearTimeout(settling);
    settling = setTimeout(settle, SETTLE);
  });
  return true;
}

/** Saves the arrangement the arrow keys are making now, and returns once every save asked for is done. */
export function settleArrangements() {
  clearTimeout(settling);
  settle();
  return saves;
}

/** Saves the arrow keys' pending arrangement as part of their run. */
function settle() {
  const done = pending;
  pending = null;
  if (done) save(done.id, done.box, done.run);
}

/**
 * Saves annotation `id` arranged into `box` once the saves before it are done, so that each
 * starts from the annotation as the last left it, whatever the server's pace (`run`: see
 * `arrangeSelected`). Until it is saved, the annotation is shown, and arranged further, from `box`.
 */
function save(id, box, run) {
  saving = { id, box };
  saves = saves.then(async () => {
    if (state.selectedAnnotation && state.selectedAnnotation.id === id) await arrangeSelected(box, run);
    if (saving && saving.box === box) saving = null;
  });
}

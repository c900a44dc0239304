// The text layer over each page: selecting and copying text.

import { layer, pageJSON } from "./pages.js";
import { pageViews, state } from "./state.js";

const measure = document.createElement("canvas").getContext("2d");

export async function loadTextLayer(view) {
  const text = await pageJSON(view, "text?engine=" + state.engine).catch(() => null);
  const target = layer(view, "text-layer");
  if (!text || !target) return;
  for (const line of text.lines) {
    line.words.forEach((word, position) => {
      const span = document.createElement("span");
      const last = position === line.words.length - 1;
      span.textContent = word.text + (last ? "\n" : " ");
      const height = word.bounds.size.height * state.scale;
      const width = word.bounds.size.width * state.scale;
      span.style.left = word.bounds.origin.x * state.scale + "px";
      span.style.top = word.bounds.origin.y * state.scale + "px";
      span.style.fontSize = height + "px";
      span.style.fontFamily = "sans-serif";
      measure.font = height + "px sans-serif";
      const natural = measure.measureText(word.text).width;
      if (natural > 0) span.style.transform = "scaleX(" + width / natural + ")";
      span.dataset.x = word.bounds.origin.x;
      span.dataset.y = word.bounds.origin.y;
      span.dataset.width = word.bounds.size.width;
      span.dataset.height = word.bounds.size.height;
      target.append(span);
    });
  }
}

/** The selected text, one line per text line, words separated by single spaces. */
function selectedText() {
  return window.getSelection().toString()
    .split("\n").map((line) => line.replace(/\s+/g, " ").trim()).filter((line) => line.length > 0).join("\n");
}

export function wireSelectionCopy() {
  document.addEventListener("copy", (event) => {
    const text = selectedText();
    if (!text || !event.clipboardData) return;
    event.clipboardData.setData("text/plain", text);
    event.preventDefault();
  });
}

/** The words of the selection on each page, as quads per line: what a highlight covers. */
export function selectionQuads() {
  const selection = window.getSelection();
  if (selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  const byPage = new Map();
  for (const view of pageViews) {
    const textLayer = layer(view, "text-layer");
    if (!textLayer || !range.intersectsNode(textLayer)) continue;
    const lines = new Map();
    for (const span of textLayer.children) {
      if (!range.intersectsNode(span)) continue;
      const box = { x: Number(span.dataset.x), y: Number(span.dataset.y), width: Number(span.dataset.width), height: Number(span.dataset.height) };
      const key = Math.round(box.y);
      const line = lines.get(key);
      if (!line) lines.set(key, box);
      else {
        const right = Math.max(line.x + line.width, box.x + box.width);
        const bottom = Math.max(line.y + line.height, box.y + box.height);
        line.x = Math.min(line.x, box.x);
        line.y = Math.min(line.y, box.y);
        line.width = right - line.x;
        line.height = bottom - line.y;
      }
    }
    if (lines.size > 0) byPage.set(view.index, [...lines.values()]);
  }
  return byPage.size > 0 ? byPage : null;
}

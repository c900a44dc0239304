// Printing: the document's pages, drawn by the engine for print (150 dpi), one per sheet at
// each page's own size, with the page's words as invisible text over each image so that a
// printed PDF can still be searched and copied. The browser prints only these sheets.
// The server draws print images only when the settings and the PDF allow printing.

import { api } from "./api.js";
import { $, showStatus } from "./dom.js";
import { t } from "./i18n.js";
import { state } from "./state.js";

const PRINT_DPI = 150;
/** How many pages are asked for at once while the sheets are prepared. */
const AT_ONCE = 4;
const measure = document.createElement("canvas").getContext("2d");

let preparing = null;

/** Whether the open document may be printed (the print command is shown only then). */
export function printingAllowed() {
  return Boolean(state.details && state.details.allows && state.details.allows.printing);
}

/**
 * Prepares every page of the open document for print, then opens the browser's print
 * dialog; the sheets go once it closes. A page that cannot be drawn ends the preparation
 * with the reason, and nothing is printed.
 */
export async function printDocument() {
  if (!printingAllowed()) {
    showStatus(t("print.forbidden"));
    return;
  }
  if (preparing) return;
  const id = state.documentID;
  const sheets = document.createElement("div");
  sheets.id = "print-view";
  sheets.setAttribute("aria-hidden", "true");
  preparing = sheets;
  try {
    const pages = await api.json(api.base(id) + "/pages");
    const sizes = new Map();
    const views = pages.map((page, index) => {
      const width = page.size.width.toFixed(2);
      const height = page.size.height.toFixed(2);
      const name = "sheet-" + width.replace(".", "_") + "x" + height.replace(".", "_");
      sizes.set(name, "@page " + name + " { size: " + width + "pt " + height + "pt; margin: 0; }");
      const sheet = document.createElement("div");
      sheet.className = "print-page";
      sheet.style.page = name;
      sheet.style.width = width + "pt";
      sheet.style.height = height + "pt";
      sheets.append(sheet);
      return { index, sheet };
    });
    // A sheet size per page size, as a constructed style sheet (the viewer's content
    // security policy allows no inline style element).
    const sizeRules = new CSSStyleSheet();
    sizeRules.replaceSync([...sizes.values()].join("\n"));
    let done = 0;
    const queue = [...views];
    const worker = async () => {
      for (let view = queue.shift(); view; view = queue.shift()) {
        if (preparing !== sheets || state.documentID !== id) return;
        await fillSheet(id, view);
        done += 1;
        showStatus(t("print.preparing", { done, total: views.length }));
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    if (preparing !== sheets || state.documentID !== id) return;
    $("status").hidden = true;
    document.body.append(sheets);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sizeRules];
    window.addEventListener("afterprint", () => {
      sheets.remove();
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((rules) => rules !== sizeRules);
    }, { once: true });
    window.print();
  } catch (error) {
    showStatus(t("print.failed", { message: error.message }));
  } finally {
    if (preparing === sheets) preparing = null;
  }
}

/** Draws one sheet: the page's print image and its words, placed in points. */
async function fillSheet(id, { index, sheet }) {
  const base = api.base(id) + "/pages/" + index;
  const params = new URLSearchParams({ dpi: PRINT_DPI, purpose: "print", engine: state.engine, v: state.revision });
  const response = await api.request(base + "/image?" + params);
  const image = new Image();
  image.src = URL.createObjectURL(await response.blob());
  image.alt = "";
  await image.decode();
  sheet.append(image);
  const text = await api.json(base + "/text?engine=" + encodeURIComponent(state.engine)).catch(() => null);
  if (!text) return;
  for (const line of text.lines) {
    line.words.forEach((word, position) => {
      const span = document.createElement("span");
      span.textContent = word.text + (position === line.words.length - 1 ? "\n" : " ");
      const { origin, size } = word.bounds;
      span.style.left = origin.x + "pt";
      span.style.top = origin.y + "pt";
      span.style.fontSize = size.height + "pt";
      measure.font = size.height + "px sans-serif";
      const natural = measure.measureText(word.text).width;
      if (natural > 0) span.style.transform = "scaleX(" + size.width / natural + ")";
      sheet.append(span);
    });
  }
}

/** Forgets sheets being prepared for a document that is no longer shown. */
export function cancelPrinting() {
  preparing = null;
  const sheets = $("print-view");
  if (sheets) sheets.remove();
}

// Printing: the document's pages, drawn by the engine for print (150 dpi), one per sheet at
// each page's own size, with the page's words as invisible text over each image so that a
// printed PDF can still be searched and copied. The browser prints only these sheets.
// The server draws print images only when the settings and the PDF allow printing.

import { api } from "./api.js";
import { $, showStatus } from "./dom.js";
import { t } from "./i18n.js";
import { allows, state } from "./state.js";
import { wordSpans } from "./text-layer.js";

const PRINT_DPI = 150;
/** How many pages are asked for at once while the sheets are prepared. */
const AT_ONCE = 4;

let preparing = null;

/**
 * Prepares every page of the open document for print, then opens the browser's print
 * dialog; the sheets go once it closes. A page that cannot be drawn ends the preparation
 * with the reason, and nothing is printed.
 */
export async function printDocument() {
  if (!allows("printing")) {
    showStatus(t("print.forbidden"));
    return;
  }
  if (preparing) return;
  const id = state.documentID;
  const sheets = document.createElement("div");
  sheets.id = "print-view";
  sheets.setAttribute("aria-hidden", "true");
  preparing = sheets;
  // The images' blobs, given back once the sheets are printed or given up.
  const images = [];
  let printed = false;
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
        await fillSheet(id, view, images);
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
      images.forEach((url) => URL.revokeObjectURL(url));
    }, { once: true });
    printed = true;
    window.print();
  } catch (error) {
    showStatus(t("print.failed", { message: error.message }));
  } finally {
    if (!printed) images.forEach((url) => URL.revokeObjectURL(url));
    if (preparing === sheets) preparing = null;
  }
}

/**
 * Draws one sheet: the page's print image and its words, placed in points; the image's blob
 * address goes into `images`. (The image is fetched, not given its address, so that a
 * refusal comes back with the server's reason.)
 */
async function fillSheet(id, { index, sheet }, images) {
  const base = api.base(id) + "/pages/" + index;
  const params = new URLSearchParams({ dpi: PRINT_DPI, purpose: "print", engine: state.engine, v: state.revision });
  const response = await api.request(base + "/image?" + params);
  const image = new Image();
  image.src = URL.createObjectURL(await response.blob());
  images.push(image.src);
  image.alt = "";
  await image.decode();
  sheet.append(image);
  const text = await api.json(base + "/text?engine=" + encodeURIComponent(state.engine)).catch(() => null);
  if (text) sheet.append(...wordSpans(text, 1, "pt"));
}

/** Forgets sheets being prepared for a document that is no longer shown. */
export function cancelPrinting() {
  preparing = null;
  const sheets = $("print-view");
  if (sheets) sheets.remove();
}

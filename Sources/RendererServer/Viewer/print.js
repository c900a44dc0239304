// Printing. When the server prints (`GET /api/printers` answers), the Print command opens a
// dialog: one of the server's CUPS printers, or this browser; pages, copies, sides, grey. A
// job sent to a printer is followed in the status line until it ends. Printing through the
// browser: the document's pages, drawn by the engine for print (150 dpi), one per sheet at
// each page's own size, with the page's words as invisible text over each image so that a
// printed PDF can still be searched and copied. The browser prints only these sheets.
// The server prints and draws print images only when the settings and the PDF allow it.

import { api } from "./api.js";
import { $, showStatus } from "./dom.js";
import { t } from "./i18n.js";
import { addLayerParams, allows, state } from "./state.js";
import { wordSpans } from "./text-layer.js";

const PRINT_DPI = 150;
/** How many pages are asked for at once while the sheets are prepared. */
const AT_ONCE = 4;

/** How often a job sent to a printer is asked after, in milliseconds. */
const FOLLOW_EVERY = 500;

let preparing = null;
/** The server's printers: null until asked, then a list (empty when the server does not print). */
let printers = null;

/**
 * Prints the open document: through the dialog when the server has printers, else through
 * the browser at once.
 */
export async function printDocument() {
  if (!allows("printing")) {
    showStatus(t("print.forbidden"));
    return;
  }
  if (printers === null) {
    printers = await api.json("/api/printers").then((answer) => answer.printers, () => []);
  }
  if (printers.length === 0) return printInBrowser();
  openDialog();
}

/** Fills the dialog's printers (the default first chosen, this browser last) and opens it. */
function openDialog() {
  const select = $("print-printer");
  select.innerHTML = "";
  for (const printer of printers) {
    const option = new Option(printer.info && printer.info !== printer.name ? printer.name + " (" + printer.info + ")" : printer.name, printer.name);
    option.selected = printer.isDefault;
    option.disabled = !printer.isAcceptingJobs;
    select.add(option);
  }
  select.add(new Option(t("print.browser"), ""));
  $("print-error").textContent = "";
  $("print-dialog").showModal();
}

/** The dialog's Print button: the choices checked, then sent to the printer or the browser. */
function sendFromDialog(event) {
  event.preventDefault();
  const count = state.pages.length;
  const range = document.querySelector('input[name="print-range"]:checked').value;
  let pages = null;
  if (range === "current") pages = [state.currentPage];
  if (range === "some") {
    pages = parsePages($("print-pages").value, count);
    if (!pages) {
      $("print-error").textContent = t("print.badPages", { count });
      $("print-pages").focus();
      return;
    }
  }
  const copies = Number($("print-copies").value);
  if (!Number.isInteger(copies) || copies < 1 || copies > 999) {
    $("print-error").textContent = t("print.badCopies");
    $("print-copies").focus();
    return;
  }
  $("print-dialog").close();
  const printer = $("print-printer").value;
  if (!printer) return printInBrowser();
  sendToPrinter({ printer, pages, copies, sides: $("print-sides").value, grayscale: $("print-gray").checked });
}

/**
 * The 0-based pages `text` names ("1-3, 7": numbers and ranges from 1 to `count`), in
 * order, each once; null when it names none or one that is not there.
 */
export function parsePages(text, count) {
  const pages = new Set();
  for (const part of text.split(",").map((piece) => piece.trim()).filter(Boolean)) {
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!match) return null;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (first < 1 || last < first || last > count) return null;
    for (let page = first; page <= last; page += 1) pages.add(page - 1);
  }
  return pages.size ? [...pages].sort((a, b) => a - b) : null;
}

/** Sends the document to a printer of the server's, then follows the job until it ends. */
async function sendToPrinter(options) {
  const id = state.documentID;
  try {
    const job = await api.send(api.base(id) + "/print", "POST", options);
    const path = "/api/printers/" + encodeURIComponent(job.printer) + "/jobs/" + job.id;
    let shown = null;
    for (;;) {
      const { state: now } = await api.json(path);
      if (now !== shown) showStatus(t("print.progress", { printer: job.printer, job: job.id, state: t("print.state." + now) }));
      shown = now;
      if (["completed", "canceled", "aborted"].includes(now)) return;
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY));
    }
  } catch (error) {
    showStatus(t("print.failed", { message: error.message }));
  }
}

/** Wires the dialog's buttons. */
export function wirePrintDialog() {
  $("print-form").addEventListener("submit", sendFromDialog);
  $("print-cancel").addEventListener("click", (event) => {
    event.preventDefault();
    $("print-dialog").close();
  });
  $("print-pages").addEventListener("focus", () => {
    document.querySelector('input[name="print-range"][value="some"]').checked = true;
  });
}

/**
 * Prepares every page of the open document for print, then opens the browser's print
 * dialog; the sheets go once it closes. A page that cannot be drawn ends the preparation
 * with the reason, and nothing is printed.
 */
async function printInBrowser() {
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
  const params = addLayerParams(new URLSearchParams({ dpi: PRINT_DPI, purpose: "print", renderer: state.renderer, v: state.revision }));
  const response = await api.request(base + "/image?" + params);
  const image = new Image();
  image.src = URL.createObjectURL(await response.blob());
  images.push(image.src);
  image.alt = "";
  await image.decode();
  sheet.append(image);
  const text = await api.json(base + "/text?renderer=" + encodeURIComponent(state.renderer)).catch(() => null);
  if (text) sheet.append(...wordSpans(text, 1, "pt"));
}

/** Forgets sheets being prepared for a document that is no longer shown. */
export function cancelPrinting() {
  preparing = null;
  const sheets = $("print-view");
  if (sheets) sheets.remove();
}

// Printing. When the server prints (`GET /api/printers` answers), the Print command opens a
// dialog: one of the server's CUPS printers, or this browser; pages, copies, sides, grey. A
// job sent to a printer is followed in the status line until it ends. Printing through the
// browser: the document's pages, drawn by the engine for print (150 dpi), one per sheet at
// each page's own size, with the page's words as invisible text over each image so that a
// printed PDF can still be searched and copied. The browser prints only these sheets; a long
// document goes in batches, each prepared with its progress and a Cancel. A print begun from
// the browser's own menu prints a sheet that says the document follows, then the document.
// The server prints and draws print images only when the settings and the PDF allow it.

import { api } from "./api.js";
import { $, showStatus } from "./dom.js";
import { t } from "./i18n.js";
import { addOptionalContentParams, allows, state } from "./state.js";
import { wordSpans } from "./text-layer.js";

const PRINT_DPI = 150;
/** How many pages are asked for at once while the sheets are prepared. */
const AT_ONCE = 4;

/** How often a job sent to a printer is asked after, in milliseconds. */
const FOLLOW_EVERY = 500;

/** The print being prepared or printed through the browser: `{ id, cancelled }`, or null. */
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
  if (!printer) return printInBrowser(pages);
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
 * The most pages one print of the browser holds: a longer document is printed in batches of
 * this many pages, a print dialog each, so that the tab never holds the images of thousands
 * of sheets at once.
 */
const PAGES_PER_PRINT_BATCH = 200;

/** Whether the browser's print dialog now prints sheets this module prepared. */
let printingSheets = false;

/**
 * Prints the open document's pages (`pages`, 0-based, or all) through the browser, in batches
 * of `batchSize` pages: each batch is prepared with its progress shown and a Cancel, then
 * printed; after a batch the reader chooses to print the next one or to stop. A page that
 * cannot be drawn ends the printing with the reason, and its batch is not printed.
 */
export async function printInBrowser(pages = null, batchSize = PAGES_PER_PRINT_BATCH) {
  if (preparing) return;
  const id = state.documentID;
  const job = { id, cancelled: false };
  preparing = job;
  const dialog = $("print-progress");
  const stop = () => {
    job.cancelled = true;
    if (job.answer) job.answer(false);
    if (dialog.open) dialog.close();
  };
  $("print-stop").onclick = stop;
  dialog.oncancel = stop;
  try {
    const sizes = (await api.json(api.base(id) + "/pages")).map((page) => page.size);
    const chosen = pages || sizes.map((_, index) => index);
    for (let first = 0; first < chosen.length; first += batchSize) {
      const batch = chosen.slice(first, first + batchSize);
      if (first > 0 && !(await askForNextBatch(job, first, batch, chosen.length))) break;
      if (!(await printBatch(job, batch, sizes, { before: first, total: chosen.length }))) break;
    }
  } catch (error) {
    if (!job.cancelled) showStatus(t("print.failed", { message: error.message }));
  } finally {
    if (dialog.open) dialog.close();
    if (job.cancelled && state.documentID === id) showStatus(t("print.cancelled"));
    if (preparing === job) preparing = null;
  }
}

/** Whether `job` goes on: not cancelled, no page failed, and its document still shown. */
function goesOn(job) {
  return !job.cancelled && !job.failure && preparing === job && state.documentID === job.id;
}

/**
 * Says which pages went to print and asks whether to print the next batch, `batch`, which
 * starts at position `first` of the `total` pages chosen; resolves true to go on.
 */
function askForNextBatch(job, first, batch, total) {
  $("print-progress-text").textContent = t("print.batch", { first: 1, last: first, total }) + " "
    + t("print.next", { first: first + 1, last: first + batch.length });
  const button = $("print-continue");
  button.hidden = false;
  $("print-progress").showModal();
  button.focus();
  return new Promise((resolve) => {
    job.answer = resolve;
    button.onclick = () => resolve(true);
  }).finally(() => {
    job.answer = null;
    button.hidden = true;
  });
}

/**
 * Prepares the sheets of `batch` (0-based pages of `sizes`), showing the progress among the
 * `total` pages chosen, of which `before` were printed before, then prints them; resolves
 * whether printing goes on. The sheets and their images are given back once printed.
 */
async function printBatch(job, batch, sizes, { before, total }) {
  const dialog = $("print-progress");
  const bar = $("print-progress-bar");
  const sheets = document.createElement("div");
  sheets.id = "print-view";
  sheets.setAttribute("aria-hidden", "true");
  const images = [];
  const sheetSizes = new Map();
  const views = batch.map((index) => {
    const width = sizes[index].width.toFixed(2);
    const height = sizes[index].height.toFixed(2);
    const name = "sheet-" + width.replace(".", "_") + "x" + height.replace(".", "_");
    sheetSizes.set(name, "@page " + name + " { size: " + width + "pt " + height + "pt; margin: 0; }");
    const sheet = document.createElement("div");
    sheet.className = "print-page";
    sheet.dataset.index = index;
    sheet.style.page = name;
    sheet.style.width = width + "pt";
    sheet.style.height = height + "pt";
    sheets.append(sheet);
    return { index, sheet };
  });
  // A sheet size per page size, as a constructed style sheet (the viewer's content security
  // policy allows no inline style element).
  const sizeRules = new CSSStyleSheet();
  sizeRules.replaceSync([...sheetSizes.values()].join("\n"));
  let done = 0;
  const showProgress = () => {
    $("print-progress-text").textContent = t("print.preparing", { done: before + Math.min(done + 1, views.length), total });
    bar.value = (before + done) / total;
  };
  showProgress();
  if (!dialog.open) dialog.showModal();
  const queue = [...views];
  const worker = async () => {
    for (let view = queue.shift(); view && goesOn(job); view = queue.shift()) {
      try {
        await fillSheet(job.id, view, images);
      } catch (error) {
        job.failure = job.failure || error;
        return;
      }
      done += 1;
      showProgress();
    }
  };
  try {
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    if (job.failure) throw job.failure;
    if (!goesOn(job)) return false;
    dialog.close();
    document.body.append(sheets);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sizeRules];
    // The browser prints in `print()` and says so with `afterprint`.
    const afterPrint = new Promise((resolve) => window.addEventListener("afterprint", resolve, { once: true }));
    printingSheets = true;
    window.print();
    await afterPrint;
    return goesOn(job);
  } finally {
    printingSheets = false;
    sheets.remove();
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((rules) => rules !== sizeRules);
    images.forEach((url) => URL.revokeObjectURL(url));
  }
}

/**
 * Answers a print the viewer did not prepare (the browser's own menu, whose print begins
 * before any page can be fetched): the sheet says so instead of printing blank, and once that
 * print is over the viewer prints the document as its Print command does.
 */
export function wireMenuPrinting() {
  window.addEventListener("beforeprint", () => {
    if (printingSheets || !state.documentID || $("print-notice")) return;
    const notice = document.createElement("div");
    notice.id = "print-notice";
    notice.textContent = allows("printing") ? t("print.fromMenu") : t("print.forbidden");
    document.body.append(notice);
    window.addEventListener("afterprint", () => {
      notice.remove();
      if (allows("printing")) printDocument();
    }, { once: true });
  });
}

/**
 * Draws one sheet: the page's print image and its words, placed in points; the image's blob
 * address goes into `images`. (The image is fetched, not given its address, so that a
 * refusal comes back with the server's reason.)
 */
async function fillSheet(id, { index, sheet }, images) {
  const base = api.base(id) + "/pages/" + index;
  const params = addOptionalContentParams(new URLSearchParams({ dpi: PRINT_DPI, purpose: "print", renderer: state.renderer, v: state.revision }));
  const response = await api.request(base + "/image?" + params);
  const image = new Image();
  image.alt = "";
  // Loaded, not decoded: the browser decodes each image as it prints its sheet, and holds no
  // decoded picture of every page at once.
  const loaded = new Promise((resolve, reject) => {
    image.onload = resolve;
    image.onerror = () => reject(new Error(t("page.failed")));
  });
  image.src = URL.createObjectURL(await response.blob());
  images.push(image.src);
  await loaded;
  sheet.append(image);
  const text = await api.json(base + "/text?renderer=" + encodeURIComponent(state.renderer)).catch(() => null);
  if (text) sheet.append(...wordSpans(text, 1, "pt"));
}

/** Stops a print being prepared for a document that is no longer shown. */
export function cancelPrinting() {
  if (preparing) preparing.cancelled = true;
  preparing = null;
  const dialog = $("print-progress");
  if (dialog.open) dialog.close();
}

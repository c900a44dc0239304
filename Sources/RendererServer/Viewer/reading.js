// Reading mode: the pages' text re-laid as HTML at the reader's font size, line spacing and
// width, in place of the page images: headings, paragraphs, lists, tables and figures in
// reading order, from the structure the server reads (a tagged PDF's tree, else what layout
// analysis finds, in the text recognition read for a scan). A few pages are read at a time, from the page read on and back as the
// reader scrolls; the page read is kept when the mode is switched on and off.

import { api } from "./api.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { refreshPageLabel, scrollToPage } from "./navigation.js";
import { drawingDPI, imageURL } from "./pages.js";
import { state } from "./state.js";
import { elementNode } from "./structure.js";

/** How many pages one request for their structure asks for. */
const PAGES_A_REQUEST = 3;

/** The reader's choices, kept in this browser, and their bounds. */
const FONT_SIZES = { smallest: 12, largest: 40, step: 2 };
const defaults = { fontSize: 18, lineSpacing: "1.6", width: "36em" };
let settings = { ...defaults };

/** The pages shown, as a range of indices (empty when first > last), and what is loading. */
let shown = { first: 0, last: -1 };
let loading = null;
let generation = 0;

/** Wires the toggle, the reader's settings and the scrolling that loads pages on. */
export function wireReadingMode() {
  try {
    settings = { ...defaults, ...JSON.parse(localStorage.getItem("reading") || "{}") };
  } catch (_) { /* the defaults */ }
  applySettings();
  $("reading-toggle").addEventListener("click", () => (state.reading ? closeReadingMode() : openReadingMode()));
  $("reading-smaller").addEventListener("click", () => changeFontSize(-FONT_SIZES.step));
  $("reading-larger").addEventListener("click", () => changeFontSize(FONT_SIZES.step));
  $("reading-spacing").addEventListener("change", () => { settings.lineSpacing = $("reading-spacing").value; saveSettings(); });
  $("reading-width").addEventListener("change", () => { settings.width = $("reading-width").value; saveSettings(); });
  $("reading").addEventListener("scroll", () => {
    followPageRead();
    loadNearTheEnds();
  });
}

/** Shows the text of the page read and of those after it, in place of the pages. */
function openReadingMode() {
  if (state.reading || !state.documentID) return;
  state.reading = true;
  document.body.classList.add("reading");
  $("reading-toggle").setAttribute("aria-pressed", "true");
  $("viewer").hidden = true;
  $("reading").hidden = false;
  startAt(state.currentPage);
  $("reading").focus();
}

/** Shows the pages again, at the page read in reading mode (nothing when it is off). */
export function closeReadingMode() {
  if (!state.reading) return;
  state.reading = false;
  generation += 1;
  document.body.classList.remove("reading");
  $("reading-toggle").setAttribute("aria-pressed", "false");
  $("reading").hidden = true;
  $("viewer").hidden = false;
  $("reading-text").innerHTML = "";
  scrollToPage(state.currentPage);
  $("viewer").focus();
}

/** Empties the text and reads it again from page `index` (another document, a page gone to). */
function startAt(index) {
  generation += 1;
  loading = null;
  const text = $("reading-text");
  text.innerHTML = "";
  const language = state.details && state.details.info && state.details.info.language;
  if (language) text.lang = language;
  else text.removeAttribute("lang");
  shown = { first: index, last: index - 1 };
  $("reading").scrollTop = 0;
  load(index, Math.min(state.pages.length - 1, index + PAGES_A_REQUEST - 1), "after").then(loadNearTheEnds);
}

/**
 * Reads the structure of pages `first` to `last` (indices) and puts each page's text
 * `where` the text shown ends ("after") or starts ("before"), keeping what the reader sees
 * in place when it goes before.
 */
async function load(first, last, where) {
  if (first > last || loading) return;
  const asked = generation;
  const query = `?format=json&first=${first + 1}&last=${last + 1}&renderer=${encodeURIComponent(state.renderer)}`;
  loading = api.json(api.base(state.documentID) + "/structure" + query);
  let structure;
  try {
    structure = await loading;
  } catch (error) {
    structure = { pages: [], error };
  } finally {
    if (asked === generation) loading = null;
  }
  if (asked !== generation) return;
  const sections = [];
  for (let index = first; index <= last; index += 1) {
    const read = (structure.pages || []).find((page) => page.index === index);
    sections.push(pageSection(index, read, structure.error));
  }
  const reading = $("reading");
  const text = $("reading-text");
  if (where === "before") {
    const height = text.scrollHeight;
    text.prepend(...sections);
    reading.scrollTop += text.scrollHeight - height;
    shown.first = first;
  } else {
    text.append(...sections);
    shown.last = last;
  }
}

/** One page's text, under the page's number, or a note saying why there is none. */
function pageSection(index, read, error) {
  const section = document.createElement("section");
  section.className = "reading-page";
  section.dataset.index = index;
  const page = state.pages[index];
  const label = page && page.label ? page.label : String(index + 1);
  section.setAttribute("aria-label", t("reading.page", { page: label }));
  const number = document.createElement("p");
  number.className = "reading-page-number";
  number.textContent = t("reading.page", { page: label });
  section.append(number);
  if (read && read.elements.length > 0) {
    let figures = 0;
    read.elements.forEach((element, at) => {
      const node = elementNode(element, read.links.filter((link) => link.element === at), true);
      if (element.kind === "figure") {
        const area = read.figureAreas && read.figureAreas[figures];
        figures += 1;
        if (area) placeFigureImage(node, index, area, element.alternateText);
      }
      section.append(node);
    });
  } else {
    const note = document.createElement("p");
    note.className = "empty";
    note.textContent = error ? error.message : t("reading.noText");
    section.append(note);
  }
  return section;
}

/**
 * Puts into `figure` (a figure of page `index` whose description is `description`) the part
 * of the page its `area` covers, drawn by the server at its size on this screen: the image
 * then carries the description, which the caption shows.
 */
function placeFigureImage(figure, index, area, description) {
  const image = document.createElement("img");
  image.src = imageURL(index, state.renderer, drawingDPI(area.size, 96 * (window.devicePixelRatio || 1)), area);
  image.alt = description || t("structure.figure");
  image.loading = "lazy";
  // Its size in CSS pixels, known before it loads: the text around it never moves then, so
  // the place kept when pages are put before the view holds.
  image.width = Math.round(area.size.width * 96 / 72);
  image.height = Math.round(area.size.height * 96 / 72);
  figure.removeAttribute("role");
  figure.removeAttribute("aria-label");
  figure.prepend(image);
}

/** Loads the pages before and after those shown when the reader nears either end. */
function loadNearTheEnds() {
  if (!state.reading || loading) return;
  const reading = $("reading");
  const margin = reading.clientHeight;
  if (reading.scrollTop + reading.clientHeight > reading.scrollHeight - margin && shown.last < state.pages.length - 1) {
    load(shown.last + 1, Math.min(state.pages.length - 1, shown.last + PAGES_A_REQUEST), "after").then(loadNearTheEnds);
  } else if (reading.scrollTop < margin && shown.first > 0) {
    load(Math.max(0, shown.first - PAGES_A_REQUEST), shown.first - 1, "before").then(loadNearTheEnds);
  }
}

/** The page read is the last whose text starts above the top third of the view. */
function followPageRead() {
  const reading = $("reading");
  const mark = reading.getBoundingClientRect().top + reading.clientHeight / 3;
  let index = null;
  for (const section of $("reading-text").querySelectorAll(".reading-page")) {
    if (section.getBoundingClientRect().top > mark) break;
    index = Number(section.dataset.index);
  }
  if (index !== null && index !== state.currentPage) {
    state.currentPage = index;
    refreshPageLabel();
  }
}

/** Goes to page `index` in reading mode: its text first, then those after it. */
export function readPage(index) {
  if (!state.reading) return;
  state.currentPage = Math.max(0, Math.min(state.pages.length - 1, index || 0));
  refreshPageLabel();
  startAt(state.currentPage);
}

function changeFontSize(step) {
  settings.fontSize = Math.max(FONT_SIZES.smallest, Math.min(FONT_SIZES.largest, Number(settings.fontSize) + step));
  saveSettings();
}

function saveSettings() {
  applySettings();
  try { localStorage.setItem("reading", JSON.stringify(settings)); } catch (_) { /* not remembered */ }
}

/** The reader's choices as the text's style, and the controls showing them. */
function applySettings() {
  const text = $("reading-text");
  text.style.setProperty("--reading-size", settings.fontSize + "px");
  text.style.setProperty("--reading-spacing", settings.lineSpacing);
  text.style.setProperty("--reading-width", settings.width);
  $("reading-spacing").value = settings.lineSpacing;
  $("reading-width").value = settings.width;
  $("reading-smaller").disabled = settings.fontSize <= FONT_SIZES.smallest;
  $("reading-larger").disabled = settings.fontSize >= FONT_SIZES.largest;
}

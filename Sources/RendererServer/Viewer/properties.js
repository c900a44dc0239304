// The document's properties and its download: what `hostapp info` and `hostapp fonts` tell,
// in a dialog, and the file as the server holds it now (the reader's saved annotations
// included).

import { api } from "./api.js";
import { $ } from "./dom.js";
import { formatDate, formatNumber, t } from "./i18n.js";
import { showKept } from "./offline.js";
import { state } from "./state.js";

/** Points the download at the open document's file. */
export function offerDownload() {
  const link = $("download");
  link.href = api.base(state.documentID) + "/file";
  link.download = state.documentID.split("/").pop();
}

/** A size in points as a person reads it: "612 x 792 pt (8.5 x 11 in)". */
function pageSize(size) {
  const inches = (points) => Math.round(points / 72 * 100) / 100;
  return t("pageSize", { width: Math.round(size.width), height: Math.round(size.height), inchWidth: inches(size.width), inchHeight: inches(size.height) });
}

/**
 * The facts shown, in order: a fact's name (its label's key is `fact.` and the name) and
 * how to read it from the document's details.
 */
const facts = [
  ["Title", (d) => d.info.title],
  ["Author", (d) => d.info.author],
  ["Subject", (d) => d.info.subject],
  ["Keywords", (d) => d.info.keywords],
  ["Creator", (d) => d.info.creator],
  ["Producer", (d) => d.info.producer],
  ["Created", (d) => d.info.creationDate && formatDate(d.info.creationDate)],
  ["Modified", (d) => d.info.modificationDate && formatDate(d.info.modificationDate)],
  ["PDF version", (d) => d.info.pdfVersion],
  ["Pages", (d) => formatNumber(d.info.pageCount, 0)],
  ["Page size", (d) => d.firstPage && pageSize(d.firstPage.size)],
  ["File size", (d) => t("bytes", { count: d.fileSize })],
  ["Encrypted", (d) => t(d.info.isEncrypted ? "yes" : "no")],
  ["Engine", (d) => d.renderer],
];

/** Opens the properties dialog with the open document's facts; absent ones are left out. */
export function showProperties() {
  if (!state.details) return;
  const list = $("properties-facts");
  list.innerHTML = "";
  for (const [name, read] of facts) {
    const value = read(state.details);
    if (value === undefined || value === null || value === "") continue;
    const term = document.createElement("dt");
    term.textContent = t("fact." + name);
    const definition = document.createElement("dd");
    definition.textContent = value;
    definition.dataset.fact = name;
    list.append(term, definition);
  }
  $("properties").showModal();
  showFonts(state.documentID);
  showKept();
}

/**
 * Lists the fonts of document `id` in the dialog (asked for when it opens: scanning every
 * page of a long document is not free); says so when there are none, or when the engine
 * cannot list them.
 */
async function showFonts(id) {
  const status = $("properties-fonts-status");
  const table = $("properties-fonts");
  const rows = table.querySelector("tbody");
  table.hidden = true;
  rows.innerHTML = "";
  status.textContent = t("fonts.loading");
  let fonts;
  try {
    fonts = await api.json(api.base(id) + "/fonts");
  } catch (_) {
    if (state.documentID === id) status.textContent = t("fonts.unavailable");
    return;
  }
  if (state.documentID !== id) return;
  status.textContent = fonts.length ? "" : t("fonts.none");
  for (const font of fonts) {
    const row = rows.insertRow();
    for (const text of [font.name || t("font.unnamed"), t("font.kind." + font.kind), t(font.isEmbedded ? "yes" : "no"), t(font.isSubset ? "yes" : "no")]) {
      row.insertCell().textContent = text;
    }
  }
  table.hidden = fonts.length === 0;
}

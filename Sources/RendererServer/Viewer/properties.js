// The document's properties and its download: what `hostapp info` tells, in a dialog, and
// the file as the server holds it now (the reader's saved annotations included).

import { api } from "./api.js";
import { $ } from "./dom.js";
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
  return Math.round(size.width) + " x " + Math.round(size.height) + " pt (" + inches(size.width) + " x " + inches(size.height) + " in)";
}

/** A date from the API (ISO 8601) in the reader's own form. */
function date(value) {
  const parsed = new Date(value);
  return isNaN(parsed) ? String(value) : parsed.toLocaleString();
}

/** The facts shown, in order: a label, and how to read it from the document's details. */
const facts = [
  ["Title", (d) => d.info.title],
  ["Author", (d) => d.info.author],
  ["Subject", (d) => d.info.subject],
  ["Keywords", (d) => d.info.keywords],
  ["Creator", (d) => d.info.creator],
  ["Producer", (d) => d.info.producer],
  ["Created", (d) => d.info.creationDate && date(d.info.creationDate)],
  ["Modified", (d) => d.info.modificationDate && date(d.info.modificationDate)],
  ["PDF version", (d) => d.info.pdfVersion],
  ["Pages", (d) => String(d.info.pageCount)],
  ["Page size", (d) => d.firstPage && pageSize(d.firstPage.size)],
  ["File size", (d) => d.fileSize.toLocaleString() + " bytes"],
  ["Encrypted", (d) => (d.info.isEncrypted ? "yes" : "no")],
  ["Engine", (d) => d.renderer],
];

/** Opens the properties dialog with the open document's facts; absent ones are left out. */
export function showProperties() {
  if (!state.details) return;
  const list = $("properties-facts");
  list.innerHTML = "";
  for (const [label, read] of facts) {
    const value = read(state.details);
    if (value === undefined || value === null || value === "") continue;
    const term = document.createElement("dt");
    term.textContent = label;
    const definition = document.createElement("dd");
    definition.textContent = value;
    definition.dataset.fact = label;
    list.append(term, definition);
  }
  $("properties").showModal();
}

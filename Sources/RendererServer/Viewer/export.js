// Exporting the open document's text with its structure as Markdown, a page or the whole.

import { api } from "./api.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { allows, state } from "./state.js";

/** Wires the properties dialog's export buttons. */
export function wireMarkdownExport() {
  $("export-page").addEventListener("click", () => exportMarkdown(state.currentPage + 1, state.currentPage + 1));
  $("export-document").addEventListener("click", () => exportMarkdown(1, state.pages.length));
}

/** Offers the export when the settings and the PDF's permissions let the reader save a copy and copy its text. */
export function offerMarkdownExport() {
  $("export").hidden = !allows("download") || !allows("copying");
  $("export-status").textContent = "";
}

/**
 * Asks the server for pages `first` to `last` (from 1) as Markdown, as many at a time as it
 * reads for one request, and saves them as one file; the status line tells how far it is,
 * and why it stopped if it did.
 */
async function exportMarkdown(first, last) {
  const status = $("export-status");
  const step = state.limits.structurePages;
  const parts = [];
  try {
    for (let from = first; from <= last; from += step) {
      const to = Math.min(last, from + step - 1);
      status.textContent = t("export.progress", { first: from, last: to, count: last });
      const query = `?format=markdown&first=${from}&last=${to}&renderer=${encodeURIComponent(state.renderer)}`;
      const response = await api.request(api.base(state.documentID) + "/structure" + query);
      parts.push((await response.text()).trimEnd());
    }
  } catch (error) {
    status.textContent = t("export.failed", { message: error.message });
    return;
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([parts.join("\n\n---\n\n") + "\n"], { type: "text/markdown" }));
  const name = state.documentID.split("/").pop().replace(/\.pdf$/i, "");
  link.download = first === last ? t("export.pageFile", { name, page: first }) : name + ".md";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  status.textContent = t("export.done", { file: link.download });
}

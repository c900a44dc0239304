// Opening a PDF of the reader's own machine, when the server takes uploads (`hostapp serve
// --uploads`): the file goes to the server as it is, which keeps it apart from the served
// documents under a new id that only this viewer knows, and it opens like any other.

import { api } from "./api.js";
import { $, showStatus } from "./dom.js";
import { formatNumber, t } from "./i18n.js";

let maximumBytes = 0;

/** The name an upload is shown by in the document list: the file's, while this tab keeps it. */
function uploadLabel(id) {
  let name = null;
  try { name = sessionStorage.getItem("upload:" + id); } catch (_) { /* not kept */ }
  return t("upload.label", { name: name || t("upload.unnamed") });
}

/** Adds upload `id` to the document list (once) and chooses it there. */
export function listUpload(id) {
  const select = $("document");
  if (![...select.options].some((option) => option.value === id)) select.add(new Option(uploadLabel(id), id));
  select.value = id;
}

/**
 * Shows the Open command when the server takes uploads, and wires it: the file chosen is
 * sent and opened with `open(id)`; one too large, or one the server refuses, is said in words
 * and opens nothing.
 */
export async function offerUploads(open) {
  let facts;
  try {
    facts = await api.json("/api/uploads");
  } catch (_) {
    return; // the server takes none: no command
  }
  maximumBytes = facts.maximumBytes;
  const input = $("open-file-input");
  // Office documents and HTML pages too, when the server converts them.
  const converted = [...(facts.officeDocuments || []), ...(facts.htmlDocuments || [])];
  if (converted.length) input.accept += "," + converted.map((extension) => "." + extension).join(",");
  $("open-file").hidden = false;
  $("open-file").addEventListener("click", () => input.click());
  input.addEventListener("change", async () => {
    const file = input.files[0];
    input.value = "";
    if (!file) return;
    if (file.size > maximumBytes) {
      showStatus(t("upload.tooLarge", { name: file.name, limit: formatNumber(maximumBytes / 1048576, 0) }));
      return;
    }
    showStatus(t("upload.sending", { name: file.name }));
    try {
      const kept = await api.json("/api/uploads", { method: "POST", headers: { "Content-Type": "application/pdf" }, body: file });
      try { sessionStorage.setItem("upload:" + kept.id, file.name); } catch (_) { /* the list says "your file" */ }
      $("status").hidden = true;
      listUpload(kept.id);
      await open(kept.id);
    } catch (error) {
      showStatus(t("upload.failed", { name: file.name, message: error.message }));
    }
  });
}

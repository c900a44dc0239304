// Recognising the text of a scanned document on request: offered when a page shows no text
// and the server reads scans only when asked, with its progress and a way to stop it.

import { api } from "./api.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { layer } from "./pages.js";
import { pageViews, state } from "./state.js";
import { loadStructure } from "./structure.js";
import { loadTextLayer } from "./text-layer.js";

/** How often the reading's progress is asked for while it runs. */
const PROGRESS_INTERVAL_MS = 500;

/** The document the bar was offered for, so that it is offered once per document. */
let offeredFor = null;
let polling = null;

/** Wires the bar's buttons. */
export function wireRecognition() {
  $("recognition-start").addEventListener("click", () => changeReading("POST"));
  $("recognition-cancel").addEventListener("click", () => changeReading("DELETE"));
  $("recognition-close").addEventListener("click", () => ($("recognition").hidden = true));
}

/** Hides the bar and forgets the offer: another document opens. */
export function resetRecognition() {
  offeredFor = null;
  clearTimeout(polling);
  polling = null;
  $("recognition").hidden = true;
}

/**
 * Called when a page's text layer came back empty: on a server that reads scans when asked,
 * offers to recognise the document's text (once per document), or shows the reading that
 * runs.
 */
export async function offerRecognition() {
  if (state.textRecognition !== "onRequest" || offeredFor === state.documentID) return;
  offeredFor = state.documentID;
  const status = await api.json(readingPath()).catch(() => null);
  if (status && status.available && status.state !== "done") show(status);
}

function readingPath() {
  return api.base(state.documentID) + "/recognition?renderer=" + encodeURIComponent(state.renderer);
}

/** Starts (POST) or stops (DELETE) the reading, and shows what it does. */
async function changeReading(method) {
  const documentID = state.documentID;
  try {
    const response = await api.request(readingPath(), { method });
    if (state.documentID === documentID) show(await response.json());
  } catch (error) {
    $("recognition-message").textContent = t("recognition.failed", { message: error.message });
  }
}

/** Shows the bar for `status`, asking again while the reading runs. */
function show(status) {
  const running = status.state === "running";
  $("recognition").hidden = false;
  $("recognition-start").hidden = running;
  $("recognition-cancel").hidden = !running;
  const progress = $("recognition-progress");
  progress.hidden = !running;
  progress.max = Math.max(1, status.pageCount);
  progress.value = status.pagesDone;
  const messages = {
    idle: t("recognition.offer"),
    running: t("recognition.progress", { done: status.pagesDone, count: status.pageCount }),
    done: t("recognition.done", { count: status.pagesRecognized }),
    cancelled: t("recognition.cancelled", { done: status.pagesDone, count: status.pageCount }),
    failed: t("recognition.failed", { message: status.error || "" }),
  };
  $("recognition-message").textContent = messages[status.state];
  clearTimeout(polling);
  if (running) {
    const documentID = state.documentID;
    polling = setTimeout(async () => {
      const next = await api.json(readingPath()).catch(() => null);
      if (next && state.documentID === documentID) show(next);
    }, PROGRESS_INTERVAL_MS);
  } else if (status.state === "done") {
    $("recognition-start").hidden = true;
    reloadTextLayers();
  }
}

/** Fills the drawn pages' text layers again: their scans now have words. */
function reloadTextLayers() {
  for (const view of pageViews) {
    const target = view.drawn && view.generation ? layer(view, "text-layer") : null;
    if (!target) continue;
    target.replaceChildren();
    loadTextLayer(view).then(() => loadStructure(view));
  }
}

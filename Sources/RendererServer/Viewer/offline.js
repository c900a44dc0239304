// Reading and annotating without a network. The viewer is an installable web app (its
// manifest, and service-worker.js, which keeps what the reader read within a storage budget
// they see and choose in the document's properties). Form fills made offline (forms.js) and,
// in a collaboration, annotations (collaboration.js) wait in this browser and go to the server
// when the network comes back; what the server refuses then is listed here for the reader to
// send again or let go.

import { loadAnnotations } from "./annotations.js";
import { collaboration } from "./collaboration.js";
import { $, showStatus } from "./dom.js";
import { loadForm, refusedFills, resendFill, sendWaitingFills } from "./forms.js";
import { formatNumber, t } from "./i18n.js";
import { state } from "./state.js";

const { BUDGETS, budget, dropConflict, forgetKept, keptUsage, setBudget } = globalThis.offlineStore;

/**
 * Installs the service worker and follows the network: offline, the reader is told that
 * the viewer shows what it kept; back online, the changes made meanwhile are sent.
 */
export function wireOffline() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/service-worker.js", { scope: "/" }).catch(() => { /* no offline copy */ });
    // What this page loads without the worker (on a first visit, before the worker takes it
    // over) is asked for again through it, so that it is kept too.
    const unkept = [];
    const keep = () => {
      if (navigator.serviceWorker.controller && unkept.length > 0) navigator.serviceWorker.controller.postMessage({ keep: unkept.splice(0) });
    };
    const [page] = performance.getEntriesByType("navigation");
    if (page && page.workerStart === 0) unkept.push(location.href);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.workerStart === 0) unkept.push(entry.name);
      keep();
    }).observe({ type: "resource", buffered: true });
    navigator.serviceWorker.addEventListener("controllerchange", keep);
  }
  if (!navigator.onLine) showStatus(t("offline.now"));
  window.addEventListener("offline", () => showStatus(t("offline.now")));
  window.addEventListener("online", () => syncOffline());
  $("offline-budget").addEventListener("change", async (event) => {
    await keepWaitingNow();
    await setBudget(Number(event.target.value));
    showKept();
  });
  $("offline-forget").addEventListener("click", async () => {
    await forgetKept();
    showKept();
  });
}

/**
 * Sends the changes made offline (form fills; in a collaboration, annotations), then shows
 * the document as the server has it and what it refused. Called when the network comes back,
 * when the layer's connection is made again and when a document opens.
 */
export async function syncOffline() {
  if (!state.documentID) return;
  const documentID = state.documentID;
  const filled = await sendWaitingFills(documentID);
  const annotated = collaboration.active ? await collaboration.flush(documentID) : { applied: 0, refused: 0 };
  if (state.documentID !== documentID) return;
  if (collaboration.active) await loadAnnotations();
  if (filled.applied + filled.refused > 0) await loadForm();
  const sent = filled.applied + annotated.applied;
  if (sent > 0) showStatus(t("offline.sent", { count: sent }));
  await showConflicts();
}

/** Lists the offline changes the server refused, each with a way to send it again or let it go. */
async function showConflicts() {
  const region = $("conflicts");
  const list = $("conflicts-list");
  const documentID = state.documentID;
  const conflicts = documentID
    ? [...(collaboration.active ? await collaboration.conflicts(documentID) : []), ...await refusedFills(documentID)].sort((a, b) => a.made - b.made)
    : [];
  list.innerHTML = "";
  region.hidden = conflicts.length === 0;
  for (const conflict of conflicts) {
    const item = document.createElement("li");
    const lines = conflict.kind === "form" ? fillLines(conflict) : annotationLines(conflict);
    item.dataset.id = lines.id;
    for (const [className, text] of lines.texts) {
      const line = document.createElement("p");
      if (className) line.className = className;
      line.textContent = text;
      item.append(line);
    }
    const resend = document.createElement("button");
    resend.className = "resend";
    resend.textContent = t("offline.conflict.resend");
    resend.disabled = !(conflict.reason === "conflict" || conflict.reason === "deleted");
    resend.addEventListener("click", () => settle(async () => {
      if (conflict.kind === "form") {
        await resendFill(conflict);
        await dropConflict(conflict);
      } else {
        await collaboration.resendConflict(documentID, conflict);
      }
    }));
    const drop = document.createElement("button");
    drop.className = "drop";
    drop.textContent = t("offline.conflict.drop");
    drop.addEventListener("click", () => settle(() => dropConflict(conflict)));
    item.append(resend, drop);
    list.append(item);
  }
}

/** What a refused annotation change says: what and where, why, the reader's text and the text now. */
function annotationLines(conflict) {
  const mine = conflict.change.annotation || {};
  const now = conflict.current ? conflict.current.annotation : null;
  const texts = [[null, t("offline.conflict", { kind: mine.kind || "", page: (mine.pageIndex ?? 0) + 1, message: conflict.message || conflict.reason })]];
  if (conflict.change.annotation) texts.push(["mine", t("offline.conflict.mine", { contents: mine.contents || "" })]);
  if (now) texts.push(["now", t("offline.conflict.now", { contents: now.contents || "", author: now.author || "" })]);
  return { id: mine.id || conflict.change.annotationID, texts };
}

/** What a refused fill says: its fields, why, the reader's values and the values now. */
function fillLines(conflict) {
  const shown = (values) => Object.entries(values).map(([name, value]) => name + " = " + (Array.isArray(value) ? value.join(", ") : value ?? "")).join("; ");
  const texts = [[null, t("offline.fillConflict", { fields: Object.keys(conflict.values).join(", "), message: conflict.message || conflict.reason })],
    ["mine", t("offline.conflict.mine", { contents: shown(conflict.values) })]];
  if (conflict.current) texts.push(["now", t("offline.fillConflict.now", { contents: shown(conflict.current) })]);
  return { id: Object.keys(conflict.values).join(","), texts };
}

async function settle(action) {
  try {
    await action();
  } catch (error) {
    showStatus(error.message);
  }
  if (collaboration.active) await loadAnnotations();
  await loadForm();
  await showConflicts();
}

/**
 * Asks the service worker to keep now the answers it holds until the viewer pauses, and
 * resolves once it has (at once without a worker; after two seconds if it does not say).
 */
function keepWaitingNow() {
  const worker = "serviceWorker" in navigator ? navigator.serviceWorker.controller : null;
  if (!worker) return Promise.resolve();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    worker.postMessage({ keepWaiting: true }, [channel.port2]);
    setTimeout(resolve, 2000);
  });
}

/** Shows in the properties dialog how much this browser keeps for offline reading, and of what budget. */
export async function showKept() {
  const chooser = $("offline-budget");
  try {
    await keepWaitingNow();
    const [usage, limit] = await Promise.all([keptUsage(), budget()]);
    if (chooser.options.length === 0) {
      for (const bytes of BUDGETS) chooser.add(new Option(t("offline.megabytes", { size: bytes / (1024 * 1024) }), String(bytes)));
    }
    chooser.value = String(limit);
    $("offline-usage").textContent = t("offline.usage", { used: formatNumber(usage.bytes / (1024 * 1024), 1), budget: limit / (1024 * 1024), count: usage.count });
  } catch (_) {
    $("offline-usage").textContent = t("offline.unavailable");
  }
}

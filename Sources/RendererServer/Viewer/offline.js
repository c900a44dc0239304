// Reading and annotating without a network. The viewer is an installable web app (its
// manifest, and service-worker.js, which keeps what the reader read within a storage budget
// they see and choose in the document's properties). In a collaboration, annotations made
// offline wait in this browser and go to the server when the network comes back
// (collaboration.js); what the layer refuses then is listed here for the reader to send
// again or let go.

import { loadAnnotations } from "./annotations.js";
import { collaboration } from "./collaboration.js";
import { $, showStatus } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { state } from "./state.js";

const { BUDGETS, budget, forgetKept, keptUsage, setBudget } = globalThis.offlineStore;

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
    await setBudget(Number(event.target.value));
    showKept();
  });
  $("offline-forget").addEventListener("click", async () => {
    await forgetKept();
    showKept();
  });
}

/**
 * Sends the changes made offline, then shows the layer as the server has it and what it
 * refused. Called when the network comes back, when the layer's connection is made again and
 * when a document opens.
 */
export async function syncOffline() {
  if (!collaboration.active || !state.documentID) return;
  const documentID = state.documentID;
  const sent = await collaboration.flush(documentID);
  if (state.documentID !== documentID) return;
  await loadAnnotations();
  if (sent.applied > 0) showStatus(t("offline.sent", { count: sent.applied }));
  await showConflicts();
}

/** Lists the offline changes the layer refused, each with a way to send it again or let it go. */
export async function showConflicts() {
  const region = $("conflicts");
  const list = $("conflicts-list");
  const conflicts = collaboration.active && state.documentID ? await collaboration.conflicts(state.documentID) : [];
  list.innerHTML = "";
  region.hidden = conflicts.length === 0;
  for (const conflict of conflicts) {
    const mine = conflict.change.annotation || {};
    const now = conflict.current ? conflict.current.annotation : null;
    const item = document.createElement("li");
    item.dataset.id = mine.id || conflict.change.annotationID;
    const what = document.createElement("p");
    what.textContent = t("offline.conflict", { kind: mine.kind || "", page: (mine.pageIndex ?? 0) + 1, message: conflict.message || conflict.reason });
    item.append(what);
    for (const [key, annotation] of [["offline.conflict.mine", mine], ["offline.conflict.now", now]]) {
      if (!annotation) continue;
      const line = document.createElement("p");
      line.className = key === "offline.conflict.mine" ? "mine" : "now";
      line.textContent = t(key, { contents: annotation.contents || "", author: annotation.author || "" });
      item.append(line);
    }
    const resend = document.createElement("button");
    resend.className = "resend";
    resend.textContent = t("offline.conflict.resend");
    resend.disabled = !(conflict.reason === "conflict" || conflict.reason === "deleted");
    resend.addEventListener("click", () => settle(() => collaboration.resendConflict(state.documentID, conflict)));
    const drop = document.createElement("button");
    drop.className = "drop";
    drop.textContent = t("offline.conflict.drop");
    drop.addEventListener("click", () => settle(() => collaboration.dropConflict(conflict)));
    item.append(resend, drop);
    list.append(item);
  }
}

async function settle(action) {
  try {
    await action();
  } catch (error) {
    showStatus(error.message);
  }
  await loadAnnotations();
  await showConflicts();
}

/** Shows in the properties dialog how much this browser keeps for offline reading, and of what budget. */
export async function showKept() {
  const chooser = $("offline-budget");
  try {
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

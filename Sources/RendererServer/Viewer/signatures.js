// The signatures panel: each signature field of the open document with the server's verdict
// (valid, invalid, not verified) in colour and in words, the signer, the signing time and the
// reasons, checked against the trust anchors the server was given. Checking a signature can
// mean drawing every page twice (to compare the signed revision), so the panel asks only
// when it is first shown for a document. Where the server holds a signing identity and the
// settings allow it, the reader signs an unsigned field, or the document in a new invisible
// field, after a dialog asks for a reason, a location and (for a document not signed yet)
// a certification; the key stays on the server, which answers with the verdicts after
// signing.

import { api } from "./api.js";
import { $, showStatus } from "./dom.js";
import { t } from "./i18n.js";
import { drawPage } from "./pages.js";
import { emptyNote, refreshThumbnails } from "./sidebar.js";
import { allows, pageViews, state } from "./state.js";

/** The document whose verdicts the panel holds or is asking for; null for none. */
let shownFor = null;

/** Whether a field of the document shown is signed: then no new signature may certify. */
let anySigned = false;

/** What the sign dialog will ask the server for, and the button that opened it. */
let pending = null;

/** Lists the open document's verdicts, unless the panel holds them already. */
export function showSignatures() {
  if (shownFor === state.documentID) return;
  shownFor = state.documentID;
  loadSignatures();
}

/** Forgets the verdicts the panel holds, when another document opens. */
export function forgetSignatures() {
  shownFor = null;
  $("signatures").innerHTML = "";
}

/** Lists the open document's signature fields with their verdicts. */
async function loadSignatures() {
  const id = state.documentID;
  const panel = $("signatures");
  panel.innerHTML = "";
  let verdicts;
  try {
    verdicts = await api.json(api.base(id) + "/signatures");
  } catch (error) {
    if (state.documentID === id) panel.append(emptyNote(error.message));
    return;
  }
  if (state.documentID !== id) return;
  showVerdicts(verdicts);
}

/** Fills the panel with `verdicts`, and the button that signs the document where allowed. */
function showVerdicts(verdicts) {
  const panel = $("signatures");
  panel.innerHTML = "";
  anySigned = verdicts.some((verdict) => !verdict.reasons.some((reason) => reason.code === "notSigned"));
  if (allows("signing")) {
    const button = document.createElement("button");
    button.id = "sign-document";
    button.textContent = t("signatures.signDocument");
    button.addEventListener("click", () => askToSign({ page: state.currentPage }, button, t("signatures.signDocument")));
    panel.append(button);
  }
  if (verdicts.length === 0) return panel.append(emptyNote(t("signatures.none")));
  const list = document.createElement("ul");
  for (const verdict of verdicts) list.append(signatureItem(verdict));
  panel.append(list);
}

/**
 * Opens the sign dialog for `request` (where the signature goes), saying `where`; the
 * certification is offered only while no field is signed.
 */
function askToSign(request, button, where) {
  pending = { request, button };
  $("sign-where").textContent = where;
  $("sign-reason").value = "";
  $("sign-location").value = "";
  $("sign-certify").value = "none";
  $("sign-certify-choice").hidden = anySigned;
  $("sign-dialog").showModal();
}

/** The dialog's Sign button: the request with what the reader wrote, sent. */
function signFromDialog(event) {
  event.preventDefault();
  $("sign-dialog").close();
  if (!pending) return;
  const { request, button } = pending;
  pending = null;
  const reason = $("sign-reason").value.trim();
  const location = $("sign-location").value.trim();
  if (reason) request.reason = reason;
  if (location) request.location = location;
  if (!anySigned && $("sign-certify").value !== "none") request.certify = $("sign-certify").value;
  sign(request, button);
}

/** Wires the sign dialog's buttons. */
export function wireSignDialog() {
  $("sign-form").addEventListener("submit", signFromDialog);
  $("sign-cancel").addEventListener("click", (event) => {
    event.preventDefault();
    pending = null;
    $("sign-dialog").close();
  });
}

/**
 * Asks the server to sign as `request` says; then shows the verdicts it answers and draws
 * the pages again, a visible signature's appearance on them. On refusal says why.
 */
async function sign(request, button) {
  const id = state.documentID;
  button.disabled = true;
  try {
    const verdicts = await api.send(api.base(id) + "/signatures", "POST", request);
    if (state.documentID !== id) return;
    showVerdicts(verdicts);
    state.revision += 1;
    for (const view of pageViews) {
      view.drawn = null;
      if (view.visible) drawPage(view);
    }
    refreshThumbnails();
  } catch (error) {
    if (state.documentID !== id) return;
    button.disabled = false;
    showStatus(t("signatures.refused", { message: error.message }));
  }
}

/** One field: its verdict as a badge, its name, signer and time, then its reasons. */
function signatureItem(verdict) {
  const item = document.createElement("li");
  item.className = "signature verdict-" + verdict.verdict;
  const heading = document.createElement("p");
  heading.className = "heading";
  const badge = document.createElement("span");
  badge.className = "verdict";
  badge.textContent = t("signatures." + verdict.verdict);
  const name = document.createElement("strong");
  name.textContent = verdict.field;
  heading.append(badge, " ", name);
  if (allows("signing") && verdict.reasons.some((reason) => reason.code === "notSigned")) {
    const button = document.createElement("button");
    button.className = "sign";
    button.textContent = t("signatures.sign");
    button.title = t("signatures.signField", { name: verdict.field });
    button.addEventListener("click", () => askToSign({ field: verdict.field, visible: true }, button, button.title));
    heading.append(" ", button);
  }
  item.append(heading);
  const facts = [];
  if (verdict.signer) facts.push(t("signatures.signer", { name: verdict.signer }));
  if (verdict.signingTime) facts.push(t("signatures.time", { time: new Date(verdict.signingTime).toLocaleString() }));
  // A signature's own timestamp, which its reasons judge (a document timestamp's time is
  // its signing time).
  if (verdict.timestampTime && verdict.reasons.some((reason) => reason.code.startsWith("timestamp"))) {
    facts.push(t("signatures.timestamped", { time: new Date(verdict.timestampTime).toLocaleString() }));
  }
  for (const fact of facts) {
    const line = document.createElement("p");
    line.className = "fact";
    line.textContent = fact;
    item.append(line);
  }
  const reasons = document.createElement("ul");
  reasons.className = "reasons";
  for (const reason of verdict.reasons) {
    const line = document.createElement("li");
    line.dataset.code = reason.code;
    line.textContent = reason.message;
    reasons.append(line);
  }
  item.append(reasons);
  return item;
}

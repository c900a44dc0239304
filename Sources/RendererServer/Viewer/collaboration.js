// Collaboration in the viewer. When the address names a layer and a collaboration token
// (#doc=ID&layer=NAME&collab=JWT), the viewer shows that layer's annotations instead of
// the file's, sends each edit to the server as a change of the layer, and listens on the
// layer's WebSocket, so that what other readers add, change and delete appears at once.
//
// The token stays out of the server's logs (an address's fragment is never sent) and out
// of view: the viewer keeps it in this tab's session storage, so a reload of the tab keeps
// the layer. Who the reader is and what they may do are read from the token to grey out
// what they cannot change; the server checks the token's signature and enforces the same
// rules on every request.
import { api, APIError } from "./api.js";
import { showStatus } from "./dom.js";
import { t } from "./i18n.js";

export const collaboration = {
  layer: null,
  token: null,
  user: null,
  permissions: new Set(),
  revisions: new Map(),   // annotation id -> the layer revision of its current value
  socket: null,
  documentID: null,

  get active() {
    return this.token !== null;
  },

  /** Takes the layer and token from the address (or this tab's storage) and drops the token from view. */
  setUp() {
    const hash = new URLSearchParams(location.hash.slice(1));
    const layer = hash.get("layer");
    const token = hash.get("collab") || (layer && sessionStorage.getItem("collab:" + layer));
    if (!layer || !token) return;
    const claims = this.claims(token);
    if (!claims) return showStatus(t("collaboration.badToken"));
    this.layer = layer;
    this.token = token;
    this.user = claims.sub;
    this.permissions = new Set(claims.permissions || []);
    sessionStorage.setItem("collab:" + layer, token);
  },

  /** The fragment that names the document and, when collaborating, the layer (never the token). */
  fragment(documentID) {
    return "#doc=" + encodeURIComponent(documentID) + (this.active ? "&layer=" + encodeURIComponent(this.layer) : "");
  },

  /** A JWT's claims, unverified: only to know what to grey out. */
  claims(token) {
    try {
      const payload = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
      return JSON.parse(decodeURIComponent(escape(atob(payload))));
    } catch (_) {
      return null;
    }
  },

  canAnnotate() {
    return this.permissions.has("write") || this.permissions.has("annotations:edit:self") || this.permissions.has("annotations:edit:all");
  },
  mayModify(annotation) {
    return this.canAnnotate() && (annotation.author === this.user || this.permissions.has("annotations:edit:all"));
  },
  mayRemove(annotation) {
    return this.canAnnotate() && (annotation.author === this.user || this.permissions.has("annotations:edit:all") || this.permissions.has("annotations:delete:all"));
  },
  /** Whether the annotation is another reader's that this one may not change. */
  isForeign(annotation) {
    return !this.mayModify(annotation);
  },
  /** Whether the layer changed the annotation after the file's own (so the page image does not show it). */
  isLayerOwn(annotation) {
    return (this.revisions.get(annotation.id) || 0) > 0;
  },

  base(documentID) {
    return "/api/collab/documents/" + encodeURIComponent(documentID) + "/layers/" + encodeURIComponent(this.layer);
  },
  headers(extra = {}) {
    return { Authorization: "Bearer " + this.token, ...extra };
  },

  /** The layer's annotations now. */
  async load(documentID) {
    const snapshot = await api.json(this.base(documentID) + "/annotations", { headers: this.headers() });
    this.revisions = new Map(snapshot.annotations.map((stored) => [stored.annotation.id, stored.revision]));
    return snapshot.annotations.map((stored) => stored.annotation);
  },

  /** Sends one change; returns the annotation as stored, or throws the server's reason. */
  async send(documentID, change) {
    change.operationID = crypto.randomUUID();
    const answer = await api.json(this.base(documentID) + "/changes", {
      method: "POST", headers: this.headers({ "Content-Type": "application/json" }), body: JSON.stringify({ changes: [change] }),
    });
    const result = answer.results[0];
    if (result.status !== "applied") throw new APIError(409, result.reason, t("collaboration.refused", { message: result.message }));
    this.revisions.set(result.annotation.annotation.id, result.annotation.revision);
    return result.annotation.annotation;
  },
  add(documentID, annotation) {
    return this.send(documentID, { action: "add", annotation });
  },
  modify(documentID, annotation) {
    return this.send(documentID, { action: "modify", annotation, baseRevision: this.revisions.get(annotation.id) || 0 });
  },
  remove(documentID, annotation) {
    return this.send(documentID, { action: "delete", annotationID: annotation.id });
  },

  /**
   * Listens on the layer's WebSocket, calling `onChange(action, annotation)` for each change;
   * when changes may have been missed, it calls `onChange("reload")`: after reconnecting
   * when the connection dropped, and when the server says `hello` again on an open socket.
   */
  listen(documentID, onChange, reconnected = false) {
    this.documentID = documentID;
    if (this.socket) this.socket.close();
    const address = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + this.base(documentID)
      + "/events?access_token=" + encodeURIComponent(this.token);
    const socket = new WebSocket(address);
    this.socket = socket;
    let greeted = false;
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "hello") {
        const missed = reconnected || greeted;
        greeted = true;
        if (missed) onChange("reload", null);
        return;
      }
      if (message.type !== "change" || !message.annotation) return;
      this.revisions.set(message.annotation.annotation.id, message.annotation.revision);
      onChange(message.action, message.annotation.annotation);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket || this.documentID !== documentID) return;
      setTimeout(() => { if (this.socket === socket) this.listen(documentID, onChange, true); }, 2000);
    });
  },
};

// Collaboration in the viewer. When the address names a layer and a collaboration token
// (#doc=ID&layer=NAME&collab=JWT), the viewer shows that layer's annotations instead of
// the file's, sends each edit to the server as a change of the layer, and listens on the
// layer's WebSocket, so that what other readers add, change and delete appears at once.
//
// Changes made while the server cannot be reached wait in this browser (offline-store.js's
// outbox, under the reader who made them) and are shown at once; when the network comes back
// they go to the server in the order they were made, each with the operation id it was given
// when made, so that one sent twice is applied once. A change the layer refuses then (another
// reader changed the annotation meanwhile) is kept and shown (`conflicts`), never dropped.
//
// The token stays out of the server's logs (an address's fragment is never sent) and out
// of view: the viewer keeps it in this tab's session storage, so a reload of the tab keeps
// the layer. Who the reader is and what they may do are read from the token to grey out
// what they cannot change; the server checks the token's signature and enforces the same
// rules on every request.
import { api, APIError } from "./api.js";
import { showStatus } from "./dom.js";
import { t } from "./i18n.js";

const { all, dropConflict, settled, transaction } = globalThis.offlineStore;

export const collaboration = {
  layer: null,
  token: null,
  user: null,
  permissions: new Set(),
  revisions: new Map(),   // annotation id -> the layer revision of its current value
  socket: null,
  documentID: null,
  pending: new Set(),     // ids of annotations with changes in the outbox
  flushing: null,         // the outbox's sending under way

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
  /** Whether the layer changed the annotation after the file's own (so the page image does not show it), or will. */
  isLayerOwn(annotation) {
    return (this.revisions.get(annotation.id) || 0) > 0 || this.pending.has(annotation.id);
  },
  /** Whether the annotation has changes made offline that the server has not had yet. */
  isPending(annotation) {
    return this.pending.has(annotation.id);
  },

  base(documentID) {
    return "/api/collab/documents/" + encodeURIComponent(documentID) + "/layers/" + encodeURIComponent(this.layer);
  },
  headers(extra = {}) {
    return { Authorization: "Bearer " + this.token, ...extra };
  },

  /**
   * The layer's annotations now (the copy kept for offline reading when the server cannot be
   * reached), with this reader's changes that still wait in the outbox made on them.
   */
  async load(documentID) {
    const address = this.base(documentID) + "/annotations";
    const snapshot = await api.json(address, { headers: this.headers() });
    // Read before the service worker took the page over (a first visit), the snapshot is
    // asked for again through it once it has, with the reader's token, so that it is kept:
    // the worker asks again by itself only with the cookie, which the layer does not take.
    if ("serviceWorker" in navigator && !navigator.serviceWorker.controller) {
      navigator.serviceWorker.addEventListener("controllerchange", () => {
        api.json(address, { headers: this.headers() }).catch(() => { /* kept on the next read */ });
      }, { once: true });
    }
    this.revisions = new Map(snapshot.annotations.map((stored) => [stored.annotation.id, stored.revision]));
    let annotations = snapshot.annotations.map((stored) => stored.annotation);
    const waiting = await this.outbox(documentID);
    this.pending = new Set();
    for (const { change } of waiting) {
      const id = change.action === "delete" ? change.annotationID : change.annotation.id;
      annotations = annotations.filter((held) => held.id !== id);
      if (change.action !== "delete") annotations.push(change.annotation);
      this.pending.add(id);
    }
    return annotations;
  },

  /** The outbox's changes of this reader, document and layer, in the order they were made. */
  async outbox(documentID) {
    return (await all("outbox")).filter((entry) => this.owns(entry, documentID));
  },
  /** The changes of this reader, document and layer that the layer refused when they were sent. */
  async conflicts(documentID) {
    return (await all("conflicts")).filter((entry) => this.owns(entry, documentID)).sort((a, b) => a.made - b.made);
  },
  owns(entry, documentID) {
    return entry.kind === "annotation" && entry.user === this.user && entry.layer === this.layer && entry.documentID === documentID;
  },

  /**
   * Sends one change; returns the annotation as stored, or throws the server's reason. When
   * the server cannot be reached (or changes made before still wait), the change waits in the
   * outbox and the annotation is returned as it will be.
   */
  async send(documentID, change) {
    change.operationID = crypto.randomUUID();
    // An annotation added offline needs its identity before the server sees it: later
    // changes made offline name it. It is the reader's (the server takes that from the token).
    if (change.action === "add") change.annotation = { ...change.annotation, id: change.annotation.id || crypto.randomUUID(), author: this.user };
    if ((await this.outbox(documentID)).length === 0) {
      try {
        return await this.push(documentID, change);
      } catch (error) {
        if (!(error instanceof APIError) || error.code !== "unreachable") throw error;
      }
    }
    const entry = { kind: "annotation", operationID: change.operationID, user: this.user, layer: this.layer, documentID, change, made: Date.now() };
    await transaction(["outbox"], "readwrite", (stores) => settled(stores.outbox.add(entry)));
    showStatus(t("offline.kept"));
    return change.annotation || null;
  },
  /** Sends `change` to the layer now: the annotation as stored, or throws. */
  async push(documentID, change) {
    const result = await this.pushResult(documentID, change);
    if (result.status !== "applied") throw new APIError(409, result.reason, t("collaboration.refused", { message: result.message }));
    return result.annotation.annotation;
  },
  /** Sends `change` to the layer now: its result (applied or rejected), or throws when the request fails. */
  async pushResult(documentID, change) {
    const answer = await api.json(this.base(documentID) + "/changes", {
      method: "POST", headers: this.headers({ "Content-Type": "application/json" }), body: JSON.stringify({ changes: [change] }),
    });
    const result = answer.results[0];
    if (result.status === "applied") this.revisions.set(result.annotation.annotation.id, result.annotation.revision);
    return result;
  },

  /**
   * Sends the outbox's changes of this reader, document and layer, one at a time in the order
   * they were made, each with its own operation id; resolves to how many were applied and how
   * many the layer refused. A change the layer refuses moves to `conflicts`; when the server
   * cannot be reached again, what is left waits for the next time. A change made offline on an
   * annotation that an earlier change of the outbox made or changed is made on the revision
   * that earlier change gave it (the reader's own edits in a row are no conflict); a delete of
   * an annotation deleted meanwhile is done.
   */
  flush(documentID) {
    if (!this.active) return Promise.resolve({ applied: 0, refused: 0 });
    if (!this.flushing) {
      this.flushing = this.sendOutbox(documentID).finally(() => { this.flushing = null; });
    }
    return this.flushing;
  },
  async sendOutbox(documentID) {
    const counts = { applied: 0, refused: 0 };
    const refused = new Set();   // annotation ids an earlier change of this flush could not change
    for (let entry = (await this.outbox(documentID))[0]; entry; entry = (await this.outbox(documentID))[0]) {
      const change = entry.change;
      const id = change.action === "delete" ? change.annotationID : change.annotation.id;
      let result;
      if (refused.has(id) && change.action !== "delete") {
        result = { status: "rejected", reason: "conflict", message: t("offline.afterRefused") };
      } else {
        try {
          result = await this.pushResult(documentID, change);
        } catch (error) {
          if (error instanceof APIError && error.code !== "unreachable") showStatus(error.message);
          return counts;
        }
      }
      const deleted = change.action === "delete" && (result.reason === "deleted" || result.reason === "not-found");
      if (result.status === "applied" || deleted) {
        if (result.status === "applied") counts.applied += 1;
        // The reader's later edits of the annotation are made on the revision this one gave
        // it, kept with them so that a flush cut short goes on from there.
        await transaction(["outbox"], "readwrite", async (stores) => {
          await settled(stores.outbox.delete(entry.sequence));
          if (result.status !== "applied") return;
          for (const later of await settled(stores.outbox.getAll())) {
            if (!this.owns(later, documentID) || later.change.action !== "modify" || later.change.annotation.id !== id) continue;
            stores.outbox.put({ ...later, change: { ...later.change, baseRevision: result.annotation.revision } });
          }
        });
      } else {
        counts.refused += 1;
        refused.add(id);
        const conflict = { ...entry, reason: result.reason, message: result.message, current: result.current || null };
        await transaction(["outbox", "conflicts"], "readwrite", async (stores) => {
          await settled(stores.conflicts.put(conflict));
          await settled(stores.outbox.delete(entry.sequence));
        });
      }
    }
    return counts;
  },

  /**
   * Makes a refused offline change again on the annotation as it is now (a fresh operation):
   * the reader chose theirs over the one made meanwhile. An annotation deleted meanwhile is
   * added again as a new one.
   */
  async resendConflict(documentID, conflict) {
    const change = { ...conflict.change };
    if (change.action === "modify" && conflict.reason === "deleted") {
      const { id, ...fields } = change.annotation;
      change.action = "add";
      change.annotation = fields;
      delete change.baseRevision;
    } else if (change.action === "modify" && conflict.current) {
      change.baseRevision = conflict.current.revision;
    }
    const made = await this.send(documentID, change);
    await dropConflict(conflict);
    return made;
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
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket || this.documentID !== documentID) return;
      // A draining server (1012, Service Restart) asks for a new connection at once, which
      // its load balancer gives another server; the clients spread theirs over a second.
      const delay = event.code === 1012 ? Math.random() * 1000 : 2000;
      setTimeout(() => { if (this.socket === socket) this.listen(documentID, onChange, true); }, delay);
    });
  },
};

// The sidebar: thumbnails, the outline, bookmarks and the files the document embeds (its
// optional content has a module of its own, optional-content.js).

import { api } from "./api.js";
import { $, showStatus } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { jumpTo } from "./navigation.js";
import { afterPagesInView } from "./pages.js";
import { addOptionalContentParams, allows, state } from "./state.js";

let thumbnailObserver = null;

export function buildThumbnails() {
  const panel = $("thumbnails");
  panel.innerHTML = "";
  if (thumbnailObserver) thumbnailObserver.disconnect();
  thumbnailObserver = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const image = entry.target.querySelector("img");
      // The pages in view are drawn first: a jump's thumbnails follow its page.
      afterPagesInView(() => { if (!image.src && image.isConnected) image.src = thumbnailURL(Number(entry.target.dataset.index)); });
    }
  }, { root: panel, rootMargin: "200px 0px" });
  for (const page of state.pages) {
    const item = document.createElement("button");
    item.type = "button";
    item.className = "thumbnail";
    item.dataset.index = page.index;
    const image = new Image();
    image.alt = t("page.label", { page: page.index + 1 });
    image.loading = "lazy";
    // A frame at the page's proportions holds it, so that the list does not move as
    // thumbnails load (an image without its source has no size of its own).
    const frame = document.createElement("span");
    frame.className = "frame";
    frame.style.height = Math.round(120 * page.size.height / Math.max(1, page.size.width)) + "px";
    frame.append(image);
    const caption = document.createElement("div");
    caption.textContent = page.label || String(page.index + 1);
    item.append(frame, caption);
    item.addEventListener("click", () => jumpTo(page.index));
    panel.append(item);
    thumbnailObserver.observe(item);
  }
}

export function thumbnailURL(index) {
  const params = new URLSearchParams({ width: 120 * Math.min(2, window.devicePixelRatio || 1), renderer: state.renderer, v: state.revision });
  if (state.dark) params.set("dark", "true");
  addOptionalContentParams(params);
  return api.base(state.documentID) + "/pages/" + index + "/image?" + params;
}

/** Asks again for the loaded thumbnails of `pages` (page indices), or of every page. */
export function refreshThumbnails(pages) {
  for (const image of document.querySelectorAll("#thumbnails .thumbnail img")) {
    const index = Number(image.closest(".thumbnail").dataset.index);
    if (image.src && (!pages || pages.includes(index))) image.src = thumbnailURL(index);
  }
}

export async function loadOutline() {
  const panel = $("outline");
  panel.innerHTML = "";
  try {
    const items = await api.json(api.base(state.documentID) + "/outline?renderer=" + state.renderer);
    if (items.length === 0) return panel.append(emptyNote(t("outline.none")));
    panel.append(outlineList(items));
  } catch (error) {
    panel.append(emptyNote(error.message));
  }
}

function outlineList(items) {
  const list = document.createElement("ul");
  for (const item of items) {
    const entry = document.createElement("li");
    const link = document.createElement("button");
    link.type = "button";
    link.className = "entry";
    link.textContent = item.title;
    const destination = item.destination;
    if (destination && destination.kind === "page") link.addEventListener("click", () => jumpTo(destination.index, destination.point));
    else if (destination && destination.kind === "uri") link.addEventListener("click", () => showStatus(t("link.external", { uri: destination.uri }), destination.uri));
    if (item.children.length > 0) {
      // Shown open or closed as the document says; the reader opens and closes it.
      const children = outlineList(item.children);
      children.hidden = !item.isOpen;
      const toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "toggle";
      toggle.setAttribute("aria-label", t("outline.expand", { title: item.title }));
      const show = (open) => {
        children.hidden = !open;
        toggle.setAttribute("aria-expanded", String(open));
        toggle.textContent = open ? "\u25be" : "\u25b8";
      };
      show(item.isOpen);
      toggle.addEventListener("click", () => show(children.hidden));
      entry.append(toggle, link, children);
    } else {
      entry.append(link);
    }
    list.append(entry);
  }
  return list;
}

export async function loadBookmarks() {
  const panel = $("bookmarks");
  panel.innerHTML = "";
  let bookmarks = [];
  try {
    bookmarks = await api.json(api.base(state.documentID) + "/bookmarks");
  } catch (error) {
    return panel.append(emptyNote(error.message));
  }
  if (bookmarks.length === 0) return panel.append(emptyNote(t("bookmarks.none")));
  const list = document.createElement("ul");
  for (const bookmark of bookmarks) {
    const item = document.createElement("li");
    const link = document.createElement("button");
    link.type = "button";
    link.className = "entry";
    link.textContent = bookmark.title;
    link.addEventListener("click", () => jumpTo(bookmark.pageIndex));
    const remove = document.createElement("button");
    remove.textContent = "\u00d7";
    remove.title = t("bookmark.remove", { title: bookmark.title });
    remove.setAttribute("aria-label", remove.title);
    remove.addEventListener("click", async () => {
      await api.json(api.base(state.documentID) + "/bookmarks/" + encodeURIComponent(bookmark.id), { method: "DELETE" }).catch((e) => showStatus(e.message));
      loadBookmarks();
    });
    item.append(link, remove);
    list.append(item);
  }
  panel.append(list);
}

export async function addBookmark() {
  const page = state.currentPage;
  const label = state.pages[page] ? state.pages[page].label : String(page + 1);
  try {
    await api.send(api.base(state.documentID) + "/bookmarks", "POST", { pageIndex: page, title: t("page.label", { page: label }) });
    showSidebarTab("bookmarks");
    loadBookmarks();
  } catch (error) {
    showStatus(error.message);
  }
}

/**
 * Lists the files the open document embeds, each a download (of its safe name) when the
 * document's settings let readers save it elsewhere, with its size, description and page.
 */
export async function loadAttachments() {
  const id = state.documentID;
  const panel = $("attachments");
  panel.innerHTML = "";
  let attachments = [];
  try {
    attachments = await api.json(api.base(id) + "/attachments");
  } catch (error) {
    if (state.documentID === id) panel.append(emptyNote(error.message));
    return;
  }
  if (state.documentID !== id) return;
  if (attachments.length === 0) return panel.append(emptyNote(t("attachments.none")));
  const list = document.createElement("ul");
  attachments.forEach((attachment, index) => {
    const item = document.createElement("li");
    const name = document.createElement(allows("download") ? "a" : "span");
    name.className = "entry";
    name.textContent = attachment.name;
    if (allows("download")) {
      name.href = api.base(id) + "/attachments/" + index;
      name.download = attachment.name.split(/[\\/]/).pop() || "attachment";
    }
    const facts = [attachment.size !== undefined ? t("bytes", { count: attachment.size }) : null,
      attachment.pageIndex !== undefined ? t("attachment.onPage", { page: formatNumber(attachment.pageIndex + 1, 0) }) : null,
      attachment.description || null].filter(Boolean);
    const detail = document.createElement("small");
    detail.textContent = facts.join(" · ");
    item.append(name, detail);
    list.append(item);
  });
  panel.append(list);
}

export function showSidebarTab(name) {
  for (const button of document.querySelectorAll("#sidebar .tabs button")) {
    const chosen = button.dataset.tab === name;
    button.classList.toggle("active", chosen);
    button.setAttribute("aria-selected", String(chosen));
    button.tabIndex = chosen ? 0 : -1;
  }
  for (const panel of document.querySelectorAll("#sidebar .panel")) {
    panel.classList.toggle("active", panel.id === name);
    panel.hidden = panel.id !== name;
  }
}

export function emptyNote(text) {
  const note = document.createElement("p");
  note.className = "empty";
  note.textContent = text;
  return note;
}

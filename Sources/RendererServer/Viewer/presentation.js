// Presentation mode: the document full screen, one page at a time fitted to the screen;
// Right, Page Down, Space or a click go on, Left, Page Up or Backspace go back, Home and End
// to the ends, Escape leaves. Offered when the document's settings allow full screen.

import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { scrollToPage } from "./navigation.js";
import { drawingDPI, imageURL } from "./pages.js";
import { allows, state } from "./state.js";

let shown = -1;

/** Starts presenting from the page being read. */
export function startPresentation() {
  if (!allows("fullScreen")) return;
  const stage = $("presentation");
  stage.hidden = false;
  show(state.currentPage);
  // Full screen where the browser allows it; the stage covers the window either way.
  if (stage.requestFullscreen) stage.requestFullscreen().catch(() => {});
  stage.focus();
}

/** Leaves presentation mode at the page shown. */
export function stopPresentation() {
  const stage = $("presentation");
  if (stage.hidden) return;
  stage.hidden = true;
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
  scrollToPage(shown);
  $("viewer").focus({ preventScroll: true });
}

/** Shows page `index` (kept within the document), fitted to the screen. */
function show(index) {
  shown = Math.max(0, Math.min(state.pages.length - 1, index));
  const page = state.pages[shown];
  const stage = $("presentation");
  const scale = Math.min(stage.clientWidth / page.size.width, stage.clientHeight / page.size.height);
  const image = $("presentation-page");
  image.style.width = Math.floor(page.size.width * scale) + "px";
  image.style.height = Math.floor(page.size.height * scale) + "px";
  image.alt = t("page.label", { page: page.label || shown + 1 });
  image.src = imageURL(shown, state.renderer, drawingDPI(page.size, scale * 72 * (window.devicePixelRatio || 1)));
  image.dataset.index = shown;
}

export function wirePresentation() {
  const stage = $("presentation");
  $("presentation-open").addEventListener("click", startPresentation);
  stage.addEventListener("click", () => show(shown + 1));
  stage.addEventListener("keydown", (event) => {
    const step = { ArrowRight: 1, ArrowDown: 1, PageDown: 1, " ": 1, Enter: 1, ArrowLeft: -1, ArrowUp: -1, PageUp: -1, Backspace: -1 }[event.key];
    if (step) show(shown + step);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(state.pages.length - 1);
    else if (event.key === "Escape") stopPresentation();
    else return;
    event.preventDefault();
    event.stopPropagation();
  });
  // Leaving full screen (Escape, the browser's own way) leaves the presentation.
  document.addEventListener("fullscreenchange", () => { if (!document.fullscreenElement) stopPresentation(); });
}

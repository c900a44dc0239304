// Free text typed in place: with the Text tool, a click on the page opens a box there; Enter
// keeps what was typed as a free text annotation (Shift+Enter starts a new line), Escape
// drops it, and leaving the box keeps it unless it is empty.

import { addAnnotation, freeTextSize } from "./annotations.js";
import { t } from "./i18n.js";
import { state } from "./state.js";

/** The style new free text gets: Helvetica, 12 points, black, left aligned. */
const STYLE = { fontFamily: "Helvetica", fontSize: 12, color: { red: 0, green: 0, blue: 0, alpha: 1 }, alignment: "left" };

/** Opens a box at `point` (points) of the page `view` shows, for the reader to type into. */
export function typeText(view, point) {
  const box = document.createElement("textarea");
  box.className = "typing";
  box.rows = 2;
  box.setAttribute("aria-label", t("text.typing"));
  box.style.left = point.x * state.scale + "px";
  box.style.top = point.y * state.scale + "px";
  box.style.fontSize = STYLE.fontSize * state.scale + "px";
  view.element.append(box);
  box.focus();
  let done = false;
  const finish = (keep) => {
    if (done) return;
    done = true;
    const text = box.value.replace(/\s+$/, "");
    box.remove();
    if (keep && text) addAnnotation(freeText(view.index, point, text));
  };
  box.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Escape") finish(false);
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      finish(true);
    }
  });
  box.addEventListener("blur", () => finish(true));
  box.addEventListener("pointerdown", (event) => event.stopPropagation());
}

/** A free text annotation of `text` at `point`, sized for its lines in the default style. */
function freeText(pageIndex, point, text) {
  return {
    kind: "FreeText", pageIndex, contents: text, textStyle: STYLE,
    rect: { origin: { x: point.x, y: point.y }, size: freeTextSize(text, STYLE.fontSize) },
  };
}

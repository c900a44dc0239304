// The page's elements: finding them, points to CSS pixels, and the status line.

export const POINTS_TO_CSS = 96 / 72;

/** A phone's screen, as viewer.css's media queries for narrow screens also write it. */
export const NARROW_SCREEN = "(max-width: 600px)";

export const $ = (id) => document.getElementById(id);

/** A message at the bottom of the window; with `link`, an explicit way to open it. */
export function showStatus(text, link) {
  $("status").hidden = false;
  $("status-text").textContent = text;
  const anchor = $("status-link");
  anchor.hidden = !link;
  if (link && /^(https?|mailto):/i.test(link)) anchor.href = link;
  else anchor.hidden = true;
}

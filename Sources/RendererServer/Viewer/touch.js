// Phones and touch: on a narrow screen the toolbar's other tools open from More; two fingers
// pinch the pages larger or smaller around them, a swipe turns the page in page-by-page
// scrolling, a double tap zooms in around the tap (and back to the page's width), and a long
// press selects the word under the finger. One finger otherwise scrolls, as the browser does.

import { $, POINTS_TO_CSS } from "./dom.js";
import { stepPage } from "./navigation.js";
import { setZoom, setZoomAround } from "./pages.js";
import { state } from "./state.js";
import { wordAt } from "./text-layer.js";

/** How long a finger rests for a long press, and how far it may move meanwhile (CSS pixels). */
const LONG_PRESS_MS = 500;
const STILL = 10;
/** How far and how fast a swipe goes, and how close two taps are to make a double tap. */
const SWIPE_DISTANCE = 60;
const SWIPE_MS = 600;
const DOUBLE_TAP_MS = 300;
const DOUBLE_TAP_DISTANCE = 30;
/** The zoom a double tap goes to from a fitting one. */
const DOUBLE_TAP_ZOOM = 2;

export function wireTouch() {
  $("toolbar-more").addEventListener("click", () => {
    const open = $("toolbar").classList.toggle("menu-open");
    $("toolbar-more").setAttribute("aria-expanded", String(open));
  });
  const viewer = $("viewer");
  let pinch = null;
  let press = null;
  let lastTap = null;

  viewer.addEventListener("touchstart", (event) => {
    if (event.touches.length === 2) {
      clearTimeout(press && press.timer);
      press = null;
      const [a, b] = event.touches;
      pinch = { distance: distance(a, b), zoom: state.scale / POINTS_TO_CSS, middle: middle(a, b), ratio: 1 };
      event.preventDefault();
      return;
    }
    if (event.touches.length !== 1) return;
    const touch = event.touches[0];
    press = { x: touch.clientX, y: touch.clientY, time: event.timeStamp, moved: false };
    press.timer = setTimeout(() => {
      if (press && !press.moved) {
        press.selected = selectWordAt(press.x, press.y);
      }
    }, LONG_PRESS_MS);
  }, { passive: false });

  viewer.addEventListener("touchmove", (event) => {
    if (pinch && event.touches.length === 2) {
      const [a, b] = event.touches;
      pinch.ratio = distance(a, b) / pinch.distance;
      // The pages follow the fingers at once; they are drawn at the new size when they lift.
      const box = $("pages").getBoundingClientRect();
      $("pages").style.transformOrigin = (pinch.middle.x - box.left) + "px " + (pinch.middle.y - box.top) + "px";
      $("pages").style.transform = "scale(" + pinch.ratio + ")";
      event.preventDefault();
      return;
    }
    if (press) {
      const touch = event.touches[0];
      if (Math.hypot(touch.clientX - press.x, touch.clientY - press.y) > STILL) {
        press.moved = true;
        clearTimeout(press.timer);
      }
    }
  }, { passive: false });

  viewer.addEventListener("touchend", (event) => {
    if (pinch) {
      if (event.touches.length < 2) {
        $("pages").style.transform = "";
        $("pages").style.transformOrigin = "";
        const { zoom, ratio, middle: around } = pinch;
        pinch = null;
        if (Math.abs(ratio - 1) > 0.02) setZoomAround(zoom * ratio, around.x, around.y);
      }
      return;
    }
    if (!press) return;
    clearTimeout(press.timer);
    const touch = event.changedTouches[0];
    const dx = touch.clientX - press.x;
    const dy = touch.clientY - press.y;
    const quick = event.timeStamp - press.time < SWIPE_MS;
    if (press.selected) {
      event.preventDefault();
    } else if (state.scrollMode === "page" && quick && Math.abs(dx) > SWIPE_DISTANCE && Math.abs(dx) > 2 * Math.abs(dy)) {
      stepPage(dx < 0 ? 1 : -1);
      event.preventDefault();
    } else if (!press.moved) {
      const tap = { x: touch.clientX, y: touch.clientY, time: event.timeStamp };
      if (lastTap && tap.time - lastTap.time < DOUBLE_TAP_MS && Math.hypot(tap.x - lastTap.x, tap.y - lastTap.y) < DOUBLE_TAP_DISTANCE) {
        lastTap = null;
        event.preventDefault();
        if (typeof state.zoom === "number" && state.zoom >= DOUBLE_TAP_ZOOM) setZoom("fit-width");
        else setZoomAround(DOUBLE_TAP_ZOOM, tap.x, tap.y);
      } else {
        lastTap = tap;
      }
    }
    press = null;
  }, { passive: false });

  viewer.addEventListener("touchcancel", () => {
    clearTimeout(press && press.timer);
    press = null;
    pinch = null;
    $("pages").style.transform = "";
  });
}

function distance(a, b) {
  return Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY) || 1;
}

function middle(a, b) {
  return { x: (a.clientX + b.clientX) / 2, y: (a.clientY + b.clientY) / 2 };
}

/** Selects the text layer's word under (`x`, `y`); whether there was one. */
function selectWordAt(x, y) {
  const span = document.elementsFromPoint(x, y).find((element) => element.matches(".text-layer span"));
  if (!span || !span.firstChild) return false;
  // A span holds a run of words: the one under the finger.
  const word = wordAt(span, x, y);
  if (!word) return false;
  const range = document.createRange();
  range.setStart(span.firstChild, word.start);
  range.setEnd(span.firstChild, word.end);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  return true;
}

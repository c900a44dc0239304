// Read aloud: the pages' text spoken by the browser's speech synthesis from the page read on,
// in reading order (the words of the page's text, line by line, as its text layer has them),
// the word being spoken marked on the page and in reading mode's text. It turns the pages as
// it goes and stops after the last; it pauses and resumes, and speaks at the speed and in the
// voice chosen (a voice of the document's language, when the browser has one, at first).

import { api } from "./api.js";
import { $ } from "./dom.js";
import { scrollToPage } from "./navigation.js";
import { layer, place } from "./pages.js";
import { pageViews, state } from "./state.js";

/** The most characters one utterance holds: speech engines cut long ones short. */
const UTTERANCE_LENGTH = 400;

/** What is being read: the page, its words, their places in the utterances, the word spoken. */
let reading = null;

/** The speech synthesis in use: the browser's, looked up when reading starts. */
const synthesis = () => window.speechSynthesis;

/** Wires the controls; they stay hidden where the browser has no speech synthesis. */
export function wireReadAloud() {
  const available = Boolean(synthesis() && window.SpeechSynthesisUtterance);
  $("read-aloud-controls").hidden = !available;
  if (!available) return;
  $("read-aloud").addEventListener("click", () => (reading ? stopReading() : startReading(state.currentPage)));
  $("read-aloud-pause").addEventListener("click", togglePause);
  $("read-aloud-rate").addEventListener("change", () => reading && restartAtWord());
  $("read-aloud-voice").addEventListener("change", () => reading && restartAtWord());
  listVoices();
  synthesis().addEventListener?.("voiceschanged", listVoices);
}

/** Fills the voice list; the first voice of the document's language (else the interface's) is chosen. */
function listVoices() {
  const select = $("read-aloud-voice");
  const chosen = select.value;
  const voices = synthesis().getVoices();
  select.innerHTML = "";
  for (const voice of voices) {
    const option = document.createElement("option");
    option.value = voice.name;
    option.textContent = voice.name + (voice.lang ? " (" + voice.lang + ")" : "");
    select.append(option);
  }
  select.hidden = voices.length === 0;
  if (voices.some((voice) => voice.name === chosen)) select.value = chosen;
  else if (voices.length > 0) select.value = preferredVoice(voices).name;
}

function preferredVoice(voices) {
  const language = ((state.details && state.details.info && state.details.info.language) || document.documentElement.lang || "").toLowerCase();
  const base = language.split("-")[0];
  return voices.find((voice) => voice.lang && voice.lang.toLowerCase() === language)
    || voices.find((voice) => voice.lang && voice.lang.toLowerCase().split("-")[0] === base)
    || voices.find((voice) => voice.default) || voices[0];
}

/** Reads from page `index` on. */
async function startReading(index) {
  stopReading();
  if (!state.documentID || index >= state.pages.length) return;
  reading = { index, words: [], spoken: -1, paused: false, generation: {} };
  $("read-aloud").setAttribute("aria-pressed", "true");
  $("read-aloud-pause").hidden = false;
  $("read-aloud-pause").setAttribute("aria-pressed", "false");
  await speakPage(index, 0);
}

/** Stops reading and takes the marks off (nothing when it is not reading). */
export function stopReading() {
  if (!reading) return;
  reading = null;
  synthesis().cancel();
  unmark();
  $("read-aloud").setAttribute("aria-pressed", "false");
  $("read-aloud-pause").hidden = true;
}

function togglePause() {
  if (!reading) return;
  reading.paused = !reading.paused;
  if (reading.paused) synthesis().pause();
  else synthesis().resume();
  $("read-aloud-pause").setAttribute("aria-pressed", String(reading.paused));
}

/**
 * Reads page `index` from word `from`: its text asked for, then spoken in utterances of whole
 * words; the next page when it ends, and the end after the last.
 */
async function speakPage(index, from) {
  const current = reading;
  if (!current) return;
  let text;
  try {
    text = await api.json(api.base(state.documentID) + "/pages/" + index + "/text?renderer=" + encodeURIComponent(state.renderer));
  } catch (_) {
    text = { lines: [] };
  }
  if (reading !== current) return;
  current.index = index;
  current.words = text.lines.flatMap((line) => line.words);
  if (state.currentPage !== index) scrollToPage(index);
  const words = current.words.slice(from);
  if (words.length === 0) return nextPage(current);
  current.generation = {};
  const generation = current.generation;
  const chunks = utterances(words, from);
  chunks.forEach((chunk, number) => {
    const utterance = new SpeechSynthesisUtterance(chunk.text);
    utterance.rate = Number($("read-aloud-rate").value) || 1;
    const voice = synthesis().getVoices().find((each) => each.name === $("read-aloud-voice").value);
    if (voice) {
      utterance.voice = voice;
      utterance.lang = voice.lang;
    }
    utterance.addEventListener("boundary", (event) => {
      if (reading !== current || current.generation !== generation || event.name === "sentence") return;
      markWord(chunk.wordAt(event.charIndex));
    });
    if (number === chunks.length - 1) {
      utterance.addEventListener("end", () => {
        if (reading === current && current.generation === generation) nextPage(current);
      });
    }
    synthesis().speak(utterance);
  });
}

/** The page after the one read, or the end. */
function nextPage(current) {
  if (reading !== current) return;
  unmark();
  if (current.index + 1 < state.pages.length) speakPage(current.index + 1, 0);
  else stopReading();
}

/** Speaks the page again from the word being spoken, with the speed and voice now chosen. */
function restartAtWord() {
  const current = reading;
  current.generation = {};
  synthesis().cancel();
  if (current.paused) togglePause();
  speakPage(current.index, Math.max(0, current.spoken));
}

/**
 * `words` (the page's from word `first` on) as utterances of at most UTTERANCE_LENGTH
 * characters, each ending at a word's end, each able to say which word a character of it
 * belongs to.
 */
function utterances(words, first) {
  const chunks = [];
  let chunk = null;
  words.forEach((word, offset) => {
    if (!chunk || chunk.text.length + 1 + word.text.length > UTTERANCE_LENGTH) {
      chunk = { text: "", starts: [], first: first + offset };
      chunks.push(chunk);
    }
    if (chunk.text.length > 0) chunk.text += " ";
    chunk.starts.push(chunk.text.length);
    chunk.text += word.text;
  });
  for (const each of chunks) {
    each.wordAt = (charIndex) => {
      let low = 0;
      let high = each.starts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (each.starts[middle] <= charIndex) low = middle;
        else high = middle - 1;
      }
      return each.first + low;
    };
  }
  return chunks;
}

/** Marks word `number` of the page read: a box over it on the page, a highlight in reading mode. */
function markWord(number) {
  const current = reading;
  const word = current.words[number];
  if (!word) return;
  current.spoken = number;
  unmark();
  const view = pageViews[current.index];
  const target = view && layer(view, "hit-layer");
  if (target) {
    const mark = document.createElement("div");
    mark.className = "speaking";
    place(mark, word.bounds);
    target.append(mark);
  }
  markInReadingText(current, number);
}

/**
 * Highlights the word in reading mode's text of the page: the occurrence of its text that
 * as many earlier words of the page share (a word reading mode joined across a hyphen is
 * not found, and is not marked).
 */
function markInReadingText(current, number) {
  if (!state.reading || !window.CSS || !CSS.highlights) return;
  const section = document.querySelector('#reading-text .reading-page[data-index="' + current.index + '"]');
  if (!section) return;
  const wanted = current.words[number].text;
  let skip = current.words.slice(0, number).filter((word) => word.text === wanted).length;
  const walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest(".reading-page-number")) continue;
    let at = node.data.indexOf(wanted);
    while (at >= 0) {
      if (skip === 0) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + wanted.length);
        CSS.highlights.set("speaking", new Highlight(range));
        return;
      }
      skip -= 1;
      at = node.data.indexOf(wanted, at + wanted.length);
    }
  }
}

function unmark() {
  for (const mark of document.querySelectorAll(".hit-layer .speaking")) mark.remove();
  if (window.CSS && CSS.highlights) CSS.highlights.delete("speaking");
}

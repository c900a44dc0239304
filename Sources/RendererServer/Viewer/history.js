// The reader's edits in this tab (annotations made, changed and removed; form fields filled),
// which Ctrl+Z takes back and Ctrl+Shift+Z or Ctrl+Y makes again. An undo or redo is an edit
// like any other, sent to the server (or to the collaboration layer, whose rules decide as for
// any change); one refused is dropped from the history, with the server's reason shown.

import { showStatus } from "./dom.js";
import { t } from "./i18n.js";

const history = { done: [], undone: [], limit: 100, turn: Promise.resolve() };

/**
 * Keeps `step` as the reader's last edit: `{ undo, redo }`, each an async function that makes
 * the edit's inverse (or the edit again) and returns whether it was made.
 */
export function record(step) {
  history.done.push(step);
  if (history.done.length > history.limit) history.done.shift();
  history.undone = [];
}

/** Whether `step` is the last edit kept, none taken back since: one a continuing edit may replace. */
export function isLastStep(step) {
  return history.undone.length === 0 && history.done.length > 0 && history.done[history.done.length - 1] === step;
}

/**
 * Puts `step` in place of the last edit kept (see `isLastStep`): for an edit that continues
 * it, so that one Ctrl+Z takes back both.
 */
export function replaceLastStep(step) {
  history.done[history.done.length - 1] = step;
}

/** Forgets every edit, as when another document opens. */
export function forgetHistory() {
  history.done = [];
  history.undone = [];
}

/**
 * Takes back the last edit (`undo` true) or makes again the last one taken back, once the
 * undos and redos asked for before have been made (keys pressed in a row take their turns) and
 * then `settle` (which keeps the edits still under way, so that they come first) is done.
 */
export function replayEdit(undo, settle = async () => {}) {
  return afterReplays(async () => {
    await settle();
    await replayStep(undo);
  });
}

/**
 * Runs `action` once the undos and redos asked for before have been made, so that it starts
 * from the annotations as they leave them, not as they were when it was asked for.
 */
export function afterReplays(action) {
  history.turn = history.turn.then(action, action);
  return history.turn;
}

async function replayStep(undo) {
  const step = (undo ? history.done : history.undone).pop();
  if (!step) return showStatus(t(undo ? "history.nothingToUndo" : "history.nothingToRedo"));
  if (await (undo ? step.undo() : step.redo())) (undo ? history.undone : history.done).push(step);
}

// Pictures placed on a page: the reader clicks where one goes and chooses a JPEG or PNG of
// their machine, which the browser makes smaller when it is finer than a page needs, and the
// server stores in a stamp annotation (the file's own, drawn by every reader).

import { addPictureStamp } from "./annotations.js";
import { collaboration } from "./collaboration.js";
import { $, showStatus } from "./dom.js";
import { t } from "./i18n.js";
import { state } from "./state.js";

/** The largest file read, in bytes. */
const LARGEST_FILE = 20 << 20;
/** The most pixels a side of the picture sent keeps. */
const LONGEST_SIDE = 1600;
/** A file at most this large, and no wider or higher than LONGEST_SIDE, is sent as it is. */
const SENT_AS_IS = 2 << 20;
/** The width a picture takes on the page, in points (less where the page ends first). */
const WIDTH = 180;

let placement = null;

/** Asks for a picture to place at `point` (points) of page `pageIndex`. */
export function askForPicture(pageIndex, point) {
  if (collaboration.active) return showStatus(t("picture.notInLayer"));
  placement = { pageIndex, point };
  $("picture-input").value = "";
  $("picture-input").click();
}

export function wirePictureInput() {
  $("picture-input").addEventListener("change", () => {
    const file = $("picture-input").files[0];
    if (file && placement) placePicture(file, placement);
  });
}

async function placePicture(file, where) {
  if (!["image/png", "image/jpeg"].includes(file.type)) return showStatus(t("picture.type", { name: file.name }));
  if (file.size > LARGEST_FILE) return showStatus(t("picture.tooLarge", { name: file.name, size: "20 MiB" }));
  let bitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch (_) {
    return showStatus(t("picture.unreadable", { name: file.name }));
  }
  const scale = Math.min(1, LONGEST_SIDE / Math.max(bitmap.width, bitmap.height));
  let bytes;
  if (scale === 1 && file.size <= SENT_AS_IS) {
    bytes = new Uint8Array(await file.arrayBuffer());
  } else {
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, file.type, 0.9));
    bytes = new Uint8Array(await blob.arrayBuffer());
  }
  const page = state.pages[where.pageIndex];
  const width = Math.max(8, Math.min(WIDTH, page ? page.size.width - where.point.x : WIDTH));
  const height = width * bitmap.height / bitmap.width;
  bitmap.close();
  await addPictureStamp({
    kind: "Stamp", pageIndex: where.pageIndex, contents: file.name,
    rect: { origin: { x: where.point.x, y: where.point.y }, size: { width, height } },
  }, bytes);
}

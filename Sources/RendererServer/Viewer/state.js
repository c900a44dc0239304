// What the viewer shows now, and the views of the pages.

/** What the viewer shows now. */
export const state = {
  documentID: null,
  details: null,
  pages: [],            // PageInfo per page: size in points, label
  zoom: "fit-width",    // a number, "fit-width" or "fit-page"
  scale: 1,             // CSS pixels per point
  renderer: null,
  compare: false,
  rotation: 0,          // the view's rotation, clockwise: 0, 90, 180 or 270
  scrollMode: "vertical", // how the pages are laid out: vertical, horizontal, wrapped or page
  spreads: "none",      // pages side by side: none, odd (1-2, 3-4, ...) or even (1, 2-3, ...)
  dark: false,          // dark mode: the interface dark, pages drawn for a dark screen
  reading: false,       // reading mode: the pages' text re-laid in place of their images
  tool: "select",
  revision: 0,          // bumped after each edit, so page images are asked for again
  shownGroups: new Set(),  // optional-content group indices drawn that the document's default hides
  hiddenGroups: new Set(), // optional-content group indices left out that the document's default draws
  annotations: [],
  formFields: [],       // FormField per field of the open document's form
  selectedAnnotation: null,
  hits: [],
  currentHit: -1,
  findController: null,
  currentPage: 0,
  wantedPage: 0,        // the page last gone to (in rows of pages, the one read in its row)
  restoring: true,
  onFirstPaint: null,   // called once the opening document's first page is drawn
  prefetched: null,     // the details of the document the address names, asked for at start
  limits: null,         // what the server lets a request ask for (/api/health's limits)
  annotationKinds: null, // the library's table of annotation kinds, by kind (/api/annotation-kinds)
  textRecognition: null, // how the server reads scans: automatic, onRequest or none
};

export const pageViews = [];   // per page: { element, image, loaded, textLoaded, ... }

/**
 * Whether the open document's details allow `what` (`printing`, `download`, `formFilling`,
 * `fullScreen`, `darkMode`): the server's settings and the PDF's permissions decide.
 */
export function allows(what) {
  return Boolean(state.details && state.details.allows && state.details.allows[what]);
}

/** Adds to a page image's query the optional-content groups the reader chose to show and to hide. */
export function addOptionalContentParams(params) {
  if (state.shownGroups.size > 0) params.set("show", [...state.shownGroups].sort((a, b) => a - b).join(","));
  if (state.hiddenGroups.size > 0) params.set("hide", [...state.hiddenGroups].sort((a, b) => a - b).join(","));
  return params;
}

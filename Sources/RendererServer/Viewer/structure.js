// The page's structure for screen readers: headings with their levels, paragraphs, lists,
// tables with header cells, figures with their descriptions and links, in the structure's
// reading order, as HTML that is read and not shown. The text layer's words stay for
// selection and find, hidden from the accessibility tree once the structure stands in.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { jumpTo } from "./navigation.js";
import { drawingJSON, layer } from "./pages.js";
import { state } from "./state.js";

/**
 * Reads the page's structure (`GET .../structure?format=json`: a tagged PDF's structure
 * tree, else what layout analysis infers, which the region's name says) and puts it in the
 * page as a region of its own. A page without structure, or whose structure cannot be read,
 * keeps its text layer as what screen readers read.
 */
export async function loadStructure(view) {
  const generation = view.generation;
  // A page emptied meanwhile (out of view) reads its structure when it is drawn again.
  if (!generation) return;
  const page = view.index + 1;
  const query = `?format=json&first=${page}&last=${page}&renderer=${encodeURIComponent(state.renderer)}`;
  const structure = await drawingJSON(view, api.base(state.documentID) + "/structure" + query).catch(() => null);
  const words = layer(view, "text-layer");
  if (view.generation !== generation || !words) return;
  // A page read again (its scan recognised) replaces the structure read before.
  view.element.querySelector(".structure")?.remove();
  words.removeAttribute("aria-hidden");
  const read = structure && structure.pages && structure.pages[0];
  if (!read || read.elements.length === 0) return;
  const region = document.createElement("section");
  region.className = "structure";
  region.dataset.source = read.source;
  region.setAttribute("aria-label", t(read.source === "layout" ? "structure.inferred" : "structure.page", { page }));
  // The document's language, which may not be the interface's.
  const language = state.details && state.details.info.language;
  if (language) region.lang = language;
  read.elements.forEach((element, number) => {
    region.append(elementNode(element, read.links.filter((link) => link.element === number)));
  });
  view.element.append(region);
  words.setAttribute("aria-hidden", "true");
}

/**
 * One element of the structure as HTML, with `links` on its words. A figure is an image
 * named by its description for a screen reader; `visible` (reading mode) also writes the
 * description under it, for every reader.
 */
export function elementNode(element, links, visible = false) {
  switch (element.kind) {
    case "heading": {
      const heading = document.createElement("h" + Math.min(6, Math.max(1, element.level)));
      heading.append(...linked(element.text, links));
      return heading;
    }
    case "list": {
      const list = document.createElement(element.ordered ? "ol" : "ul");
      for (const text of element.items) {
        const item = document.createElement("li");
        item.textContent = text;
        list.append(item);
      }
      return list;
    }
    case "table": {
      const table = document.createElement("table");
      element.rows.forEach((row, index) => {
        const line = document.createElement("tr");
        for (const text of row) {
          // The first row holds the headers, as the Markdown and HTML exports take it.
          const cell = document.createElement(index === 0 ? "th" : "td");
          if (index === 0) cell.scope = "col";
          cell.textContent = text;
          line.append(cell);
        }
        table.append(line);
      });
      return table;
    }
    case "figure": {
      const figure = document.createElement("figure");
      figure.setAttribute("role", "img");
      figure.setAttribute("aria-label", element.alternateText || t("structure.figure"));
      if (visible) {
        const caption = document.createElement("figcaption");
        caption.textContent = element.alternateText || t("structure.figure");
        figure.append(caption);
      }
      return figure;
    }
    case "code": {
      const code = document.createElement("pre");
      code.textContent = element.text;
      return code;
    }
    default: {
      const paragraph = document.createElement("p");
      paragraph.append(...linked(element.text, links));
      return paragraph;
    }
  }
}

/**
 * `text` as nodes, the words of each of `links` (a start in code points and its words) as a
 * link: web and mail addresses open in a new tab, a page of the document is gone to.
 */
function linked(text, links) {
  const points = Array.from(text);
  const nodes = [];
  let at = 0;
  for (const link of [...links].sort((a, b) => a.start - b.start)) {
    const length = Array.from(link.text).length;
    if (link.start < at || link.start + length > points.length) continue;
    const destination = link.destination;
    const anchor = document.createElement("a");
    if (destination.kind === "uri" && /^(https?|mailto):/i.test(destination.uri)) {
      anchor.href = destination.uri;
      anchor.target = "_blank";
      anchor.rel = "noopener noreferrer";
    } else if (destination.kind === "page") {
      anchor.href = "#";
      anchor.addEventListener("click", (event) => {
        event.preventDefault();
        jumpTo(destination.index, 0);
      });
    } else {
      continue;
    }
    nodes.push(points.slice(at, link.start).join(""));
    anchor.textContent = points.slice(link.start, link.start + length).join("");
    nodes.push(anchor);
    at = link.start + length;
  }
  nodes.push(points.slice(at).join(""));
  return nodes;
}

// Compare mode: the engines' images of a page and their differences.

import { $ } from "./dom.js";
import { formatNumber, formatPercent, t } from "./i18n.js";
import { drawingDPI, imageURL, pageJSON } from "./pages.js";
import { state } from "./state.js";
import { engineName } from "./viewer.js";

export async function drawComparison(view) {
  const [reference, candidate] = state.details.renderers;
  // Three images side by side in the view's width: both engines' and the differences.
  const width = Math.max(150, ($("viewer").clientWidth - 300) / 3);
  const size = state.pages[view.index].size;
  const dpi = Math.min(state.limits.comparisonMaximumDPI, drawingDPI(size, width / size.width * 72 * (window.devicePixelRatio || 1)));
  const row = document.createElement("div");
  row.className = "comparison";
  const figure = (src, caption) => {
    const element = document.createElement("figure");
    const image = new Image();
    image.src = src;
    image.alt = caption;
    image.style.width = width + "px";
    const label = document.createElement("figcaption");
    label.textContent = caption;
    element.append(image, label);
    return element;
  };
  row.append(figure(imageURL(view.index, reference, dpi), engineName(reference)), figure(imageURL(view.index, candidate, dpi), engineName(candidate)));
  const figures = document.createElement("div");
  figures.className = "figures";
  figures.textContent = t("compare.running");
  row.append(figures);
  view.element.classList.add("compared");
  view.element.style.width = "auto";
  view.element.style.height = "auto";
  view.element.append(row);
  try {
    const comparison = await pageJSON(view, "compare?dpi=" + dpi.toFixed(1) + "&v=" + state.revision);
    if (!comparison) return;
    row.insertBefore(figure(comparison.heatMap + "&v=" + state.revision, t("compare.differences")), figures);
    const page = comparison.page;
    figures.className = "figures " + (page.passed ? "passed" : "failed");
    figures.innerHTML = "";
    const lines = [
      t(page.passed ? "compare.agree" : "compare.differ"),
      page.differingShare != null ? t("compare.pixels", { share: formatPercent(page.differingShare, 2) }) : null,
      page.psnr != null ? t("compare.psnr", { value: formatNumber(page.psnr, 1) }) : null,
      page.textAgreement != null ? t("compare.words", { share: formatPercent(page.textAgreement, 1) }) : null,
      ...page.failures,
    ];
    for (const line of lines.filter(Boolean)) {
      const paragraph = document.createElement("p");
      paragraph.textContent = line;
      figures.append(paragraph);
    }
  } catch (error) {
    figures.textContent = error.message;
  }
}

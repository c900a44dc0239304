// The viewer's words in the reader's language: one catalog per language (locale-en.js,
// locale-de.js), the language the first of the browser's languages that has one (English
// otherwise), and numbers and dates in that language's form. Messages the server writes
// (its errors) are shown as it wrote them.

import english from "./locale-en.js";
import german from "./locale-de.js";

const catalogs = { en: english, de: german };

/** The language the viewer speaks: a key of the catalogs. */
export const language = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"])
  .map((tag) => String(tag).toLowerCase().split("-")[0])
  .find((tag) => catalogs[tag]) || "en";

const catalog = catalogs[language];
const numbers = new Intl.NumberFormat(language);

/**
 * The message `key` in the viewer's language, each `{name}` in it replaced by `values[name]`
 * (a number in the language's form).
 */
export function t(key, values = {}) {
  const template = catalog[key] ?? english[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? formatValue(values[name]) : whole));
}

function formatValue(value) {
  return typeof value === "number" ? numbers.format(value) : String(value);
}

/** `value` with exactly `digits` decimals, in the language's form. */
export function formatNumber(value, digits) {
  return new Intl.NumberFormat(language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** A share from 0 to 1 as a percentage with `digits` decimals, in the language's form. */
export function formatPercent(share, digits) {
  return new Intl.NumberFormat(language, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(share);
}

/** A date (ISO 8601, or anything `Date` reads) in the language's form; as it is when unreadable. */
export function formatDate(value) {
  const date = new Date(value);
  return isNaN(date) ? String(value) : date.toLocaleString(language);
}

/**
 * Puts the catalog's words into the page's own elements: `data-i18n` names the key of an
 * element's text, `data-i18n-title` of its tooltip, `data-i18n-label` of its accessible
 * name, `data-i18n-placeholder` of its placeholder.
 */
export function translatePage(root = document) {
  document.documentElement.lang = language;
  for (const element of root.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll("[data-i18n-title]")) element.title = t(element.dataset.i18nTitle);
  for (const element of root.querySelectorAll("[data-i18n-label]")) element.setAttribute("aria-label", t(element.dataset.i18nLabel));
  for (const element of root.querySelectorAll("[data-i18n-placeholder]")) element.placeholder = t(element.dataset.i18nPlaceholder);
}

/**
 * A small element builder for the portal, which has no framework. Text always goes in as text
 * nodes (never as HTML), so what the server or the user wrote cannot become markup.
 */
type Attributes = Record<string, string | number | boolean | null | undefined>;
export type Child = Node | string | null | undefined | false;

export function h<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[Tag] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  element.append(...nodesOf(children));
  return element;
}

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
}

function nodesOf(children: Child[]): (Node | string)[] {
  return children.filter((child): child is Node | string => !!child || child === '');
}

/** Replaces an element's children. */
export function replaceChildren(element: Element, ...children: Child[]): void {
  element.replaceChildren(...nodesOf(children));
}

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/** A decorative 20 px line icon from SVG path data (hidden from assistive technology). */
export function icon(paths: string[]): SVGSVGElement {
  const svg = document.createElementNS(SVG_NAMESPACE, 'svg');
  setAttributes(svg, {
    viewBox: '0 0 24 24',
    width: 20,
    height: 20,
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': 2,
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': 'true',
    focusable: 'false',
    class: 'icon',
  });
  for (const data of paths) {
    const path = document.createElementNS(SVG_NAMESPACE, 'path');
    path.setAttribute('d', data);
    svg.append(path);
  }
  return svg;
}

let nextId = 0;
/** A document-unique id, for label `for` and aria references. */
export function uniqueId(prefix: string): string {
  nextId += 1;
  return `${prefix}-${nextId}`;
}

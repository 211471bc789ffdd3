// tree.html of an Heirloom backup: a viewer that needs nothing but the backup's own folder. It
// loads data/tree.js and data/people.js with <script src> (which, unlike fetch, works from
// file://), draws the nested tree with names, avatars and partners, and opens a Sim's details on
// click. Everything is built with DOM calls and textContent; bios and the description (sanitized
// HTML when exported, but a backup can be edited) are rebuilt from an inert parse keeping only the
// rich-text tags, with no attributes. The CSP forbids any network access.
import { RICH_TEXT_TAGS } from "@/lib/schemas/rich-text";

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#2b2233;background:#f7f3fa}
header{display:flex;gap:20px;align-items:center;padding:20px 24px;background:#5b2a86;color:#fff}
header img{width:180px;height:96px;object-fit:cover;border-radius:8px;background:#7d4aa8}
header h1{margin:0 0 4px;font-size:26px}
header .description{max-width:70ch;opacity:.92}
header .description p{margin:.2em 0}
main{display:flex;align-items:flex-start}
#tree{flex:1;overflow:auto;padding:24px}
.note{padding:24px;font-size:17px}
ul.generation{list-style:none;margin:0;padding-left:28px;border-left:2px solid #d8c8e6}
#tree>ul.generation{padding-left:0;border-left:0}
li.node{margin:10px 0}
.card{display:inline-flex;flex-wrap:wrap;align-items:center;gap:6px;padding:6px 10px;background:#fff;border:1px solid #d8c8e6;border-radius:12px;box-shadow:0 1px 2px rgba(0,0,0,.06)}
.card.hidden-node{opacity:.6}
.partners{display:inline-flex;flex-wrap:wrap;align-items:center;gap:6px}
.partner-type{display:inline-block;min-width:1.6em;text-align:center;font-weight:700;color:#5b2a86}
button.sim{display:inline-flex;align-items:center;gap:8px;padding:4px 8px 4px 4px;border:0;border-radius:24px;background:#f1e9f7;color:inherit;font:inherit;cursor:pointer}
button.sim:hover,button.sim:focus-visible{background:#e2d2ef;outline:2px solid #5b2a86}
.avatar{width:40px;height:40px;border-radius:50%;object-fit:cover;flex:none;background:#cdb6e0}
.initials{display:inline-flex;align-items:center;justify-content:center;font-weight:700;color:#5b2a86}
.empty{color:#8a7b96;font-style:italic;padding:0 6px}
aside{position:sticky;top:0;width:360px;max-height:100vh;overflow:auto;padding:20px;background:#fff;border-left:1px solid #d8c8e6}
aside[hidden]{display:none}
aside img.avatar{width:120px;height:120px}
aside h2{margin:10px 0}
aside h3{margin:16px 0 4px;font-size:14px;text-transform:uppercase;letter-spacing:.04em;color:#5b2a86}
aside ul{margin:0;padding-left:20px}
aside table{border-collapse:collapse;width:100%}
aside td,aside th{border:1px solid #e6dbef;padding:4px 6px;text-align:left;vertical-align:top}
.label{display:inline-block;margin-left:6px;padding:0 6px;border-radius:8px;background:#f1e9f7;font-size:12px}
aside .close{float:right}
`;

const SCRIPT = `
(function () {
  "use strict";
  var ALLOWED = ${JSON.stringify(RICH_TEXT_TAGS)};
  var IMAGE_NAME = /^(avatar|cover)\\/[A-Za-z0-9_-]+\\.(png|jpe?g)$/;
  var PARTNER = { PARTNER: ["+", "Partner"], EX_PARTNER: ["\\u00d7", "Ex-partner"], MARRIED: ["\\u265b", "Married"], ABDUCTION: ["\\u25c9", "Abduction"] };
  var CONCEPTION = { ABDUCTION: "Alien Abduction", CLONE: "Clone" };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  /** Rebuilds sanitized rich text from an inert parse: allowed tags and text only. */
  function richText(html) {
    var out = document.createDocumentFragment();
    if (typeof html !== "string" || html === "") return out;
    var parsed = new DOMParser().parseFromString(html, "text/html");
    var stack = [[parsed.body, out]];
    while (stack.length) {
      var pair = stack.pop();
      var children = pair[0].childNodes;
      for (var i = 0; i < children.length; i++) {
        var child = children[i];
        if (child.nodeType === 3) pair[1].appendChild(document.createTextNode(child.nodeValue));
        else if (child.nodeType === 1) {
          var tag = child.nodeName.toLowerCase();
          if (tag === "script" || tag === "style" || tag === "template") continue;
          var target = pair[1];
          if (ALLOWED.indexOf(tag) >= 0) {
            target = document.createElement(tag);
            pair[1].appendChild(target);
          }
          stack.push([child, target]);
        }
      }
    }
    return out;
  }

  function image(name, className, alt) {
    if (typeof name !== "string" || !IMAGE_NAME.test(name)) return null;
    var img = el("img", className);
    img.src = "images/" + name;
    img.alt = alt || "";
    img.loading = "lazy";
    return img;
  }

  var data = typeof tree === "object" && tree ? tree : null;
  var list = Array.isArray(typeof people === "undefined" ? null : people) ? people : [];
  var byId = {};
  list.forEach(function (p) { if (p && typeof p._id === "string") byId[p._id] = p; });

  function fullName(person) {
    var name = ((person.firstName || "") + " " + (person.lastName || "")).trim();
    return name || "~ No Name ~";
  }

  function avatarOf(person) {
    var img = image(person.avatar, "avatar", "");
    if (img) return img;
    var letters = (String(person.firstName || "").charAt(0) + String(person.lastName || "").charAt(0)) || "?";
    var initials = el("span", "avatar initials", letters.toUpperCase());
    initials.setAttribute("aria-hidden", "true");
    return initials;
  }

  function simButton(ref) {
    var person = ref && byId[ref._id];
    if (!person) return el("span", "empty", "Empty");
    var button = el("button", "sim");
    button.type = "button";
    button.appendChild(avatarOf(person));
    button.appendChild(el("span", "", fullName(person)));
    button.addEventListener("click", function () { showPerson(person._id); });
    return button;
  }

  // The first node that places a person holds their parents.
  var nodeOf = {};

  function card(node) {
    var box = el("div", node.hidden ? "card hidden-node" : "card");
    box.appendChild(simButton(node.person));
    (node.partners || []).forEach(function (row) {
      var partners = el("span", "partners");
      var type = PARTNER[row.type] || PARTNER.PARTNER;
      var mark = el("span", "partner-type", type[0]);
      mark.title = type[1];
      mark.setAttribute("aria-label", type[1]);
      partners.appendChild(mark);
      (row.people || []).forEach(function (ref) { partners.appendChild(simButton(ref)); });
      box.appendChild(partners);
    });
    return box;
  }

  function drawTree(root) {
    var top = el("ul", "generation");
    var stack = [[root, top]];
    while (stack.length) {
      var item = stack.pop();
      var node = item[0];
      if (!node || typeof node !== "object") continue;
      if (node.person && node.person._id && !nodeOf[node.person._id]) nodeOf[node.person._id] = node;
      var li = el("li", "node");
      li.appendChild(card(node));
      item[1].appendChild(li);
      var children = Array.isArray(node.children) ? node.children : [];
      if (children.length) {
        var ul = el("ul", "generation");
        li.appendChild(ul);
        for (var i = children.length - 1; i >= 0; i--) stack.push([children[i], ul]);
      }
    }
    return top;
  }

  function section(panel, title, content) {
    if (!content) return;
    panel.appendChild(el("h3", "", title));
    panel.appendChild(content);
  }

  function textList(values) {
    if (!Array.isArray(values) || values.length === 0) return null;
    var ul = el("ul");
    values.forEach(function (v) { ul.appendChild(el("li", "", v)); });
    return ul;
  }

  function peopleList(refs) {
    if (!Array.isArray(refs) || refs.length === 0) return null;
    var ul = el("ul");
    refs.forEach(function (ref) {
      var li = el("li");
      li.appendChild(simButton(ref));
      ul.appendChild(li);
    });
    return ul;
  }

  var panel = document.getElementById("details");

  function showPerson(id) {
    var person = byId[id];
    if (!person) return;
    panel.textContent = "";
    var close = el("button", "close", "Close");
    close.type = "button";
    close.addEventListener("click", function () { panel.hidden = true; });
    panel.appendChild(close);
    var img = image(person.avatar, "avatar", fullName(person));
    if (img) panel.appendChild(img);
    panel.appendChild(el("h2", "", fullName(person)));
    var bio = el("div", "bio");
    bio.appendChild(richText(person.bio));
    panel.appendChild(bio);
    var node = nodeOf[id];
    if (node) {
      var parents = peopleList(node.parents);
      if (parents && CONCEPTION[node.parentType]) {
        var heading = el("p");
        heading.appendChild(el("span", "label", CONCEPTION[node.parentType]));
        parents.insertBefore(heading, parents.firstChild);
      }
      section(panel, "Biological Parents", parents);
      section(panel, "Adoptive Parents", peopleList(node.adoptiveParents));
    }
    section(panel, "Traits", textList(person.traits));
    section(panel, "Aspirations", textList(person.aspirations));
    section(panel, "Life States", textList(person.lifeStates));
    if (Array.isArray(person.custom) && person.custom.length) {
      var table = el("table");
      person.custom.forEach(function (row) {
        var tr = el("tr");
        tr.appendChild(el("th", "", row && row.title));
        tr.appendChild(el("td", "", row && row.value));
        table.appendChild(tr);
      });
      section(panel, "More", table);
    }
    if (Array.isArray(person.links) && person.links.length) {
      var links = el("ul");
      person.links.forEach(function (link) {
        links.appendChild(el("li", "", (link.title || "Link") + " (tree " + link.treeId + ", person " + link.personId + ")"));
      });
      section(panel, "Links", links);
    }
    panel.hidden = false;
    close.focus();
  }

  var title = document.getElementById("title");
  var description = document.getElementById("description");
  var treeBox = document.getElementById("tree");
  if (!data) {
    treeBox.appendChild(el("p", "note", "The tree data is missing. Keep tree.html next to the data and images folders of the backup."));
    return;
  }
  document.title = (data.title || "Untitled Tree") + " \\u2013 Heirloom backup";
  title.textContent = data.title || "Untitled Tree";
  description.appendChild(richText(data.description));
  var cover = image(data.cover, "", "Cover of " + (data.title || "the tree"));
  if (cover) document.querySelector("header").insertBefore(cover, document.querySelector("header").firstChild);
  treeBox.appendChild(drawTree(data.data));
})();
`;

/** The offline viewer; the same file for every backup (the data lives in data/*.js). */
export function viewerHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>Heirloom backup</title>
<style>${STYLE}</style>
</head>
<body>
<header><div><h1 id="title">Heirloom backup</h1><div id="description" class="description"></div></div></header>
<main><div id="tree" aria-label="Family tree"></div><aside id="details" aria-label="Sim details" hidden></aside></main>
<script src="data/tree.js"></script>
<script src="data/people.js"></script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

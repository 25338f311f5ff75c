"""Finds text a person reads that is not marked for translation, and catalogues that are not done.

Three checks, each run by `tests/i18n/test_catalogues.py` in `make test` and from the command line
(`python -m tantrix_site.i18n.lint [--catalogues] [paths...]`); `--extract` (what `make messages`
runs) brings every catalogue up to date with the sources and compiles it:

- **Templates**: text between tags, and the attributes people read (`title`, `alt`,
  `placeholder`, `aria-label`, a button's `value`), outside `{% translate %}` /
  `{% blocktranslate %}`, that holds a word. Scripts, styles and code samples (`<code>`, `<pre>`,
  `<kbd>`) are not prose. Names come from variables, so they never show up here.
- **Python**: a bare string (or f-string, or `"..." % x`) handed to the places whose words reach a
  person: `ValidationError` and the other user-facing errors, `messages.*`, a DRF `detail`,
  `label=` / `help_text=` / `verbose_name=` / `empty_label=`, `error_messages=`, `choices=` and the
  labels of `TextChoices`. Management commands, migrations and the Django-free engine are not
  read by people through the site, so they are not checked.
- **Catalogues** (`--catalogues`): every language in `settings.LANGUAGES` but English has a
  `.po` with no untranslated, fuzzy or obsolete entry, and a compiled `.mo` that says the same.

Why a lint and not only a page test: a page test sees only the pages and branches it renders; an
error message on a rare path is found here, where it is written.
"""

from __future__ import annotations

import ast
import html
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import django
import polib
from django.conf import settings
from django.core.management import call_command
from django.template.base import Lexer, TokenType
from django.test.utils import override_settings

BASE_DIR = Path(__file__).resolve().parents[2]
APPS = ("games", "players", "ratings", "tournaments", "tantrix_site")
TEMPLATE_DIRS = ("templates",)
# Templates that are not the site's own prose: DRF-spectacular's page is a shell for Swagger UI.
TEMPLATE_EXEMPT = {"templates/drf_spectacular/swagger_ui.html"}
# Directories whose code no reader of the site meets: operators' commands, schema history, the
# Django-free rules engine (its verdicts reach pages through games/records/verdicts.py, by code).
PYTHON_EXEMPT_PARTS = {"migrations", "management", "engine", "__pycache__"}

# Words that are the same in every language of the site: names of things, units, formats.
SAME_IN_EVERY_LANGUAGE = {
    "Tantrix",
    "Elo",
    "TP",
    "TPs",
    "API",
    "REST",
    "CSV",
    "JSON",
    "UTC",
    "ID",
    "OK",
    "PDF",
    "Swagger",
    "ReDoc",
    "OpenAPI",
    "ISO",
    "FIDE",
    "HTTP",
}

_WORD = re.compile(r"[^\W\d_]{2,}")
# What a tag or variable becomes: a space keeps words apart and leaves `<tr{% if %} ...>` a tag.
_PLACEHOLDER = " "
_READABLE_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label"}
_NOT_PROSE_ELEMENTS = {"script", "style", "code", "pre", "kbd", "samp", "svg"}
_VOID_ELEMENTS = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


@dataclass(frozen=True)
class Unmarked:
    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: not marked for translation: {self.text!r}"


def has_words(text: str) -> bool:
    return any(word not in SAME_IN_EVERY_LANGUAGE for word in _WORD.findall(text))


# --- templates ---------------------------------------------------------------------------------


def _skeleton(source: str) -> str:
    """The template with every translated text, comment, variable and tag replaced by a space,
    keeping the line breaks so the HTML parser's line numbers stay true."""
    parts: list[str] = []
    translating = 0
    commenting = 0
    for token in Lexer(source).tokenize():
        block = token.token_type == TokenType.BLOCK
        name = token.contents.strip().split(" ", 1)[0] if block else ""
        if name in {"blocktranslate", "blocktrans"}:
            translating += 1
        elif name in {"endblocktranslate", "endblocktrans"}:
            translating -= 1
        elif name == "comment":
            commenting += 1
        elif name == "endcomment":
            commenting -= 1
        if token.token_type == TokenType.TEXT and not translating and not commenting:
            parts.append(token.contents)
        else:
            parts.append(_PLACEHOLDER + "\n" * token.contents.count("\n"))
    return "".join(parts)


class _TemplateText(HTMLParser):
    def __init__(self, path: str) -> None:
        super().__init__(convert_charrefs=True)
        self.path = path
        self.found: list[Unmarked] = []
        self.not_prose: list[str] = []

    def _check(self, text: str) -> None:
        readable = html.unescape(text)
        if has_words(readable):
            self.found.append(Unmarked(self.path, self.getpos()[0], " ".join(readable.split())))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        for name, value in attrs:
            if value and name in _READABLE_ATTRIBUTES:
                self._check(value)
        # A <button>'s value is sent, not shown; an <input type="submit">'s value is its label.
        shown_value = tag == "input" and attributes.get("type") in {"submit", "button", "reset"}
        if shown_value and attributes.get("value"):
            self._check(attributes["value"] or "")
        if tag in _NOT_PROSE_ELEMENTS and tag not in _VOID_ELEMENTS:
            self.not_prose.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.not_prose and self.not_prose[-1] == tag:
            self.not_prose.pop()

    def handle_data(self, data: str) -> None:
        if not self.not_prose:
            self._check(data)


def unmarked_in_template(path: Path) -> list[Unmarked]:
    relative = _relative(path)
    if relative in TEMPLATE_EXEMPT:
        return []
    parser = _TemplateText(relative)
    parser.feed(_skeleton(path.read_text(encoding="utf-8")))
    parser.close()
    return parser.found


# --- Python ------------------------------------------------------------------------------------

# Calls whose first argument (or `detail=` / `message=`) is shown to a person.
_USER_ERRORS = {
    "ValidationError",
    "PermissionDenied",
    "Http404",
    "NotFound",
    "ParseError",
    "AuthenticationFailed",
    "NotAuthenticated",
    "APIException",
    "FormatError",
    "ScoreSheetError",
    "TableResultsError",
    "ClaimLinkError",
}
_MESSAGES = {"success", "info", "warning", "error", "debug", "add_message"}
_READABLE_KEYWORDS = {"label", "help_text", "verbose_name", "verbose_name_plural", "empty_label"}
_CHOICES_BASES = {"TextChoices", "IntegerChoices", "Choices"}


def _literal_texts(node: ast.AST | None) -> list[ast.AST]:
    """The bare literals in an expression that would reach a reader untranslated."""
    if node is None:
        return []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node] if has_words(node.value) else []
    if isinstance(node, ast.JoinedStr):
        literal = "".join(
            part.value
            for part in node.values
            if isinstance(part, ast.Constant) and isinstance(part.value, str)
        )
        return [node] if has_words(literal) else []
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod | ast.Add):
        return _literal_texts(node.left) + _literal_texts(node.right)
    if isinstance(node, ast.Dict):
        return [found for value in node.values for found in _literal_texts(value)]
    if isinstance(node, ast.List | ast.Tuple):
        return [found for item in node.elts for found in _literal_texts(item)]
    if isinstance(node, ast.IfExp):
        return _literal_texts(node.body) + _literal_texts(node.orelse)
    if isinstance(node, ast.Call) and _name(node.func) == "join":
        return [found for arg in node.args for found in _literal_texts(arg)]
    return []


def _name(func: ast.AST) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _choice_labels(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.List | ast.Tuple):
        found: list[ast.AST] = []
        for item in node.elts:
            if isinstance(item, ast.Tuple | ast.List) and len(item.elts) == 2:
                found += _literal_texts(item.elts[1])
        return found
    return []


class _PythonText(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.found: list[Unmarked] = []

    def _flag(self, nodes: list[ast.AST]) -> None:
        for node in nodes:
            text = node.value if isinstance(node, ast.Constant) else ast.unparse(node)
            self.found.append(Unmarked(self.path, node.lineno, str(text)))

    def visit_Call(self, node: ast.Call) -> None:
        name = _name(node.func)
        keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg}
        if name in _USER_ERRORS:
            self._flag(_literal_texts(node.args[0] if node.args else keywords.get("detail")))
            self._flag(_literal_texts(keywords.get("message")))
        elif name in _MESSAGES and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id == "messages":
                position = 2 if name == "add_message" else 1
                if len(node.args) > position:
                    self._flag(_literal_texts(node.args[position]))
                self._flag(_literal_texts(keywords.get("message")))
        elif name == "Response" and node.args and isinstance(node.args[0], ast.Dict):
            for key, value in zip(node.args[0].keys, node.args[0].values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "detail":
                    self._flag(_literal_texts(value))
        for keyword, value in keywords.items():
            if (
                keyword in _READABLE_KEYWORDS
                or keyword == "error_messages"
                and isinstance(value, ast.Dict)
            ):
                self._flag(_literal_texts(value))
            elif keyword == "choices":
                self._flag(_choice_labels(value))
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if any(_name(base) in _CHOICES_BASES for base in node.bases):
            for statement in node.body:
                if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Tuple):
                    labels = statement.value.elts[1:]
                    self._flag([found for label in labels for found in _literal_texts(label)])
        self.generic_visit(node)


_EAGER = {"gettext", "ngettext", "pgettext", "npgettext"}


def _eager_names(tree: ast.Module) -> set[str]:
    """The names a module binds to Django's non-lazy gettext functions."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
            names |= {alias.asname or alias.name for alias in node.names if alias.name in _EAGER}
    return names


def translated_at_import(tree: ast.Module, path: str) -> list[Unmarked]:
    """Calls of a non-lazy gettext outside any function: they run once, at import, in whatever
    language is active then (English), and every reader gets that."""
    eager = _eager_names(tree)
    found: list[Unmarked] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            return
        if isinstance(node, ast.Call) and _name(node.func) in eager:
            text = "translated at import time (use gettext_lazy): " + ast.unparse(node)[:60]
            found.append(Unmarked(path, node.lineno, text))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def unmarked_in_python(path: Path) -> list[Unmarked]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    visitor = _PythonText(_relative(path))
    visitor.visit(tree)
    return visitor.found + translated_at_import(tree, _relative(path))


# --- walking the tree --------------------------------------------------------------------------


def _relative(path: Path) -> str:
    try:
        return path.resolve().relative_to(BASE_DIR).as_posix()
    except ValueError:
        return path.as_posix()


def _files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_file():
            files.append(path)
            continue
        files += sorted(p for p in path.rglob("*") if p.suffix in {".py", ".html", ".txt"})
    return [f for f in files if not PYTHON_EXEMPT_PARTS.intersection(_relative(f).split("/"))]


def unmarked(paths: list[Path] | None = None) -> list[Unmarked]:
    if not paths:
        paths = [BASE_DIR / name for name in (*APPS, *TEMPLATE_DIRS)]
    found: list[Unmarked] = []
    for path in _files(paths):
        if path.suffix == ".py":
            found += unmarked_in_python(path)
        elif "templates" in _relative(path).split("/"):
            found += unmarked_in_template(path)
    return found


# --- catalogues --------------------------------------------------------------------------------


def catalogue_problems(locale_dir: Path | None = None) -> list[str]:
    """What keeps a language from being complete: a missing catalogue, untranslated, fuzzy or
    obsolete entries, or a compiled catalogue that differs from its source."""
    locale_dir = locale_dir or BASE_DIR / "locale"
    problems: list[str] = []
    for code in translated_languages():
        po_path = locale_dir / code / "LC_MESSAGES" / "django.po"
        mo_path = po_path.with_suffix(".mo")
        if not po_path.exists() or not mo_path.exists():
            problems.append(f"{code}: no {po_path.name} and compiled {mo_path.name}")
            continue
        catalogue = polib.pofile(str(po_path))
        for entry in catalogue.untranslated_entries():
            problems.append(f"{code}: untranslated (line {entry.linenum}): {entry.msgid!r}")
        for entry in catalogue.fuzzy_entries():
            problems.append(f"{code}: fuzzy (line {entry.linenum}): {entry.msgid!r}")
        for entry in catalogue.obsolete_entries():
            problems.append(f"{code}: obsolete (line {entry.linenum}): {entry.msgid!r}")
        compiled = {
            (e.msgctxt, e.msgid): (e.msgstr, tuple(sorted(e.msgstr_plural.items())))
            for e in polib.mofile(str(mo_path))
        }
        source = {
            (e.msgctxt, e.msgid): (e.msgstr, tuple(sorted(e.msgstr_plural.items())))
            for e in catalogue.translated_entries()
        }
        if compiled != source:
            problems.append(f"{code}: {mo_path.name} is not compiled from {po_path.name}")
    return problems


# One way to extract the catalogues, used by `make messages` and by the test that they are up to
# date.
MAKEMESSAGES_OPTIONS = {
    "extensions": ["html", "txt", "py"],
    "ignore_patterns": ["tests", "bench", "docs", "static", "locale"],
    "add_location": "file",
    "no_obsolete": True,
    "verbosity": 0,
}


def translated_languages() -> list[str]:
    return [code for code, _language_name in settings.LANGUAGES if not code.startswith("en")]


def extract(locale_dir: Path, languages: list[str]) -> None:
    """Runs makemessages for `languages` into `locale_dir`, merging what is there already.

    makemessages writes beside the first `locale` folder above each source file when there is
    one, whatever LOCALE_PATHS says; so it walks a scratch folder of links to the sources (no
    `locale` in it), and LOCALE_PATHS alone decides where the catalogues go."""
    here = Path.cwd()
    with tempfile.TemporaryDirectory() as scratch:
        for name in (*APPS, *TEMPLATE_DIRS):
            (Path(scratch) / name).symlink_to(BASE_DIR / name)
        os.chdir(scratch)
        try:
            with override_settings(LOCALE_PATHS=[str(locale_dir)]):
                call_command(
                    "makemessages", locale=languages, symlinks=True, **MAKEMESSAGES_OPTIONS
                )
        finally:
            os.chdir(here)


def msgids(po_path: Path) -> set[tuple[str | None, str]]:
    return {(e.msgctxt, e.msgid) for e in polib.pofile(str(po_path)) if not e.obsolete}


def main(argv: list[str]) -> int:
    check_catalogues = "--catalogues" in argv
    if check_catalogues or "--extract" in argv:
        # The lint reads settings.LANGUAGES only; a local run needs no secret for that.
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tantrix_site.settings")
        os.environ.setdefault("DEBUG", "1")
        django.setup()
    if "--extract" in argv:
        extract(BASE_DIR / "locale", translated_languages())
        call_command("compilemessages", locale=translated_languages(), verbosity=0)
        return 0
    paths = [Path(arg) for arg in argv if not arg.startswith("--")]
    problems = [str(found) for found in unmarked(paths)]
    if check_catalogues:
        problems += catalogue_problems()
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""The site's languages beyond Django's: the formats of dates and numbers per language
(`formats`, settings.FORMAT_MODULE_PATH) and the lint that finds unmarked text and unfinished
catalogues (`python -m tantrix_site.i18n.lint`)."""

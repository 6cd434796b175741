"""What every request goes through, whatever the area: host and header checks, sessions and
security headers (``security``), rate limits (``limits``), error pages and JSON problems
(``errors``), static files under versioned addresses (``assets``) and the translation
catalogues (``catalogs``). No blueprint of its own: each module binds itself to the app in
``init_app``."""

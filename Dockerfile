# scorekeeper: the Canasta scorekeeper, served by waitress on port 8000.
#   docker build -t scorekeeper .
#   docker run -p 8000:8000 -v scorekeeper-data:/data scorekeeper
# The SQLite database, the instance secret and the compiled catalogues live in the /data volume;
# for PostgreSQL run with -e SCOREKEEPER_DATABASE_URL=postgresql+psycopg://user:password@host/db.
# `scorekeeper serve` applies the schema migrations when it starts.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

COPY . /src

# Installed as a wheel (templates, catalogues and migrations inside the package), no source kept.
# Flask's instance folder of an installed package is <prefix>/var/scorekeeper-instance: it points
# into the volume, so the secret survives updates. The catalogues are compiled there at build
# time (and again at start when an update brings newer ones).
RUN pip install '/src[postgres,redis]' \
 && rm -rf /src \
 && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home scorekeeper \
 && mkdir -p /data/instance /usr/local/var \
 && ln -s /data/instance /usr/local/var/scorekeeper-instance \
 && python -c "from pathlib import Path; from scorekeeper import data_folder; from scorekeeper.web.app.catalogs import ensure_compiled; ensure_compiled(data_folder('translations'), Path('/data/instance'))" \
 && test -f /data/instance/translations/de/LC_MESSAGES/messages.mo \
 && python -c "from scorekeeper import create_app; create_app({'DATABASE_URL': 'sqlite://', 'SECRET_KEY': 'build'})" \
 && python -c "from scorekeeper import dataclass_code as d; assert d.FILE.is_file(), d.FILE" \
 && python -c "from scorekeeper.web.app import lazy_views as v; assert v.FILE.is_file(), v.FILE" \
 && chown -R scorekeeper:scorekeeper /data

WORKDIR /data
ENV SCOREKEEPER_DATABASE_URL=sqlite:////data/scorekeeper.sqlite3
VOLUME /data
USER scorekeeper
EXPOSE 8000

# GET /healthz: 200 while the database answers, 503 otherwise (a failed check).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]

CMD ["scorekeeper", "serve", "--host", "0.0.0.0", "--port", "8000"]

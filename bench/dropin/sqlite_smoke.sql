-- The drop-in survey's check of the sqlite3 shell built by SQLite's own
-- build: tables, an index, a join, aggregates, a recursive CTE, window and
-- JSON functions; the output must be byte for byte sqlite_smoke.expected.
CREATE TABLE stage(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE work(stage INTEGER REFERENCES stage(id), item INTEGER, ms REAL);
INSERT INTO stage(name) VALUES ('parse'), ('plan'), ('run');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
INSERT INTO work SELECT 1 + i % 3, i, (i * 37 % 101) / 4.0 FROM n;
CREATE INDEX work_stage ON work(stage);
SELECT s.name, count(*), printf('%.2f', sum(w.ms)), max(w.item)
  FROM work w JOIN stage s ON s.id = w.stage GROUP BY s.name ORDER BY s.name;
SELECT item, ms, rank() OVER (ORDER BY ms DESC, item) FROM work
  WHERE stage = 2 ORDER BY ms DESC, item LIMIT 5;
SELECT json_object('stages', (SELECT json_group_array(name) FROM stage),
                   'items', (SELECT count(*) FROM work));
.mode csv
SELECT name, length(name), upper(substr(name, 1, 1)) FROM stage ORDER BY id;

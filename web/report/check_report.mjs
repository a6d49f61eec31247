// Browser check of report.html files: node check_report.mjs FILE...
// Opens each file (file:// URL) in Debian's headless Chromium through
// playwright-core and fails when the page logs a console error, throws, or
// asks for anything but file: and data: URLs; when a chart expected from the
// page's own data (#report-data) is missing or drew nothing in its plot
// area; when a section without data lacks its note; or when the diagnosis
// table does not list the findings, most severe first; or when a shared
// run's tenants and interference tables do not show its data. Prints one line per
// file ("ok ..." or "FAIL <file>: <why>") and exits 1 on any failure.
import { OpenCheckedPage, RunPageChecks } from './page_check.mjs';

// A pixel belongs to a drawn series when it is opaque enough and saturated
// (axes, grid lines and labels are grey).
const kMinAlpha = 128;
const kMinSaturation = 48;
// A heat map fills its plot area with cells; a line leaves a trail of pixels.
const kMinHeatmapFill = 0.5;
const kMinLinePixels = 100;

// What the page must show, derived from its data: charts by name, notes
// for empty sections, findings most severe first.
function Expected(data) {
  const charts = [];
  const notes = [];
  for (const map of data.heatmaps || []) {
    if ((map.links || []).length > 0 && (map.times_ns || []).length > 0) {
      charts.push({name: 'Utilization: ' + map.tier, kind: 'heatmap'});
    }
  }
  for (const s of data.series || []) {
    if ((s.lines || []).some((l) => (l.times_ns || []).length > 0)) {
      charts.push({name: s.title, kind: 'line'});
    } else if (s.note) {
      notes.push(s.title + ': ' + s.note + '.');
    }
  }
  if (data.fct_cdf && (data.fct_cdf.fct_ns || []).length > 0) charts.push({name: 'FCT CDF', kind: 'line'});
  const findings = ((data.diagnosis || {}).findings || []).map((f, i) => ({f, i}));
  findings.sort((a, b) => b.f.severity - a.f.severity || a.i - b.i);
  return {charts, notes, findings: findings.map((x) => x.f)};
}

// A shared run's tenants table and victim x aggressor interference table
// against the data: one row per tenant with its name, kind and figures; a
// cell per (victim, aggressor) holding the share in percent where the data
// lists the pair, empty elsewhere. Returns the problems found.
function CheckTenants(data, tenantRows, interference) {
  const problems = [];
  if (!Array.isArray(data.tenants)) {
    if (tenantRows.length > 0 || interference.length > 0) problems.push('tenant tables shown for a run without tenants');
    return problems;
  }
  const expectedRows = data.tenants.map((t) => [String(t.name), String(t.kind), String(t.headline),
    Number(t.shared_ms).toFixed(3), Number(t.alone_ms).toFixed(3), Number(t.slowdown).toFixed(3) + '×']);
  if (JSON.stringify(tenantRows) !== JSON.stringify(expectedRows)) {
    problems.push(`tenants table ${JSON.stringify(tenantRows)}, expected ${JSON.stringify(expectedRows)}`);
  }
  const entries = data.interference || [];
  if (entries.length === 0) return problems;
  const names = data.tenants.map((t) => String(t.name));
  const expected = [['victim \\ aggressor', ...names]];
  for (const victim of names) {
    expected.push([victim, ...names.map((aggressor) => {
      const e = entries.find((x) => x.victim === victim && x.aggressor === aggressor);
      return e === undefined ? '' : (e.share * 100).toFixed(1) + ' %';
    })]);
  }
  if (JSON.stringify(interference) !== JSON.stringify(expected)) {
    problems.push(`interference table ${JSON.stringify(interference)}, expected ${JSON.stringify(expected)}`);
  }
  return problems;
}

// Runs in the page: per chart, the saturated pixels inside its plot area.
function MeasureCharts({minAlpha, minSaturation}) {
  const out = [];
  for (const div of document.querySelectorAll('.chart')) {
    const [left, top, right, bottom] = div.dataset.plotInset.split(',').map(Number);
    let saturated = 0;
    let area = 0;
    for (const canvas of div.querySelectorAll('canvas')) {
      if (canvas.width === 0 || canvas.height === 0) continue;
      const scale = canvas.width / canvas.clientWidth;
      const x0 = Math.round(left * scale);
      const y0 = Math.round(top * scale);
      const w = Math.round(canvas.width - (left + right) * scale);
      const h = Math.round(canvas.height - (top + bottom) * scale);
      if (w <= 0 || h <= 0) continue;
      const pixels = canvas.getContext('2d').getImageData(x0, y0, w, h).data;
      area = Math.max(area, w * h);
      for (let i = 0; i < pixels.length; i += 4) {
        const r = pixels[i], g = pixels[i + 1], b = pixels[i + 2], a = pixels[i + 3];
        if (a >= minAlpha && Math.max(r, g, b) - Math.min(r, g, b) >= minSaturation) saturated++;
      }
    }
    out.push({name: div.dataset.chartName, saturated, area});
  }
  return out;
}

async function Check(browser, file) {
  const problems = [];
  const page = await OpenCheckedPage(browser, file, problems, 'charts');
  const charts = await page.evaluate(MeasureCharts, {minAlpha: kMinAlpha, minSaturation: kMinSaturation});
  const dataText = await page.evaluate(() => document.getElementById('report-data').textContent);
  const notes = await page.evaluate(() => [...document.querySelectorAll('.note')].map((n) => n.textContent));
  const rows = await page.evaluate(() => [...document.querySelectorAll('#findings tbody tr')].map(
      (tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  const tenantRows = await page.evaluate(() => [...document.querySelectorAll('#tenants tbody tr')].map(
      (tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  const interference = await page.evaluate(() => [...document.querySelectorAll('#interference tr')].map(
      (tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent)));
  await page.close();

  const expected = Expected(JSON.parse(dataText));
  const names = charts.map((c) => c.name);
  const expectedNames = expected.charts.map((c) => c.name);
  if (JSON.stringify(names) !== JSON.stringify(expectedNames)) {
    problems.push(`charts ${JSON.stringify(names)}, expected ${JSON.stringify(expectedNames)}`);
  }
  for (const c of charts) {
    const kind = (expected.charts.find((e) => e.name === c.name) || {kind: 'line'}).kind;
    const enough = kind === 'heatmap' ? c.saturated >= kMinHeatmapFill * c.area : c.saturated >= kMinLinePixels;
    if (!enough) {
      problems.push(`chart "${c.name}" drew nothing (${c.saturated} coloured pixels in a plot of ${c.area})`);
    }
  }
  for (const n of expected.notes) {
    if (!notes.includes(n)) problems.push(`missing note "${n}"`);
  }
  if (rows.length !== expected.findings.length) {
    problems.push(`diagnosis table has ${rows.length} rows for ${expected.findings.length} findings`);
  } else {
    expected.findings.forEach((f, i) => {
      const [, , kind, node] = rows[i];
      if (kind !== f.kind || node !== f.node) {
        problems.push(`diagnosis row ${i + 1} shows ${kind} at ${node}, expected ${f.kind} at ${f.node}`);
      }
    });
  }
  problems.push(...CheckTenants(JSON.parse(dataText), tenantRows, interference));
  if (problems.length > 0) {
    console.log(`FAIL ${file}: ${problems.join('; ')}`);
    return false;
  }
  console.log(`ok ${file}: ${charts.length} charts drew (${charts.map((c) => `${c.name}: ${c.saturated} px`).join(', ')}), ` +
              `${expected.notes.length} notes, ${rows.length} findings, ${tenantRows.length} tenants`);
  return true;
}

await RunPageChecks('usage: node check_report.mjs REPORT.html...', Check);

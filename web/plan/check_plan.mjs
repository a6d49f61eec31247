// Browser check of plan.html files: node check_plan.mjs FILE...
// Opens each file (file:// URL) in Debian's headless Chromium through
// playwright-core (web/report's copy: this folder adds no npm package) and
// fails when the page logs a console error, throws, or asks for anything
// but file: and data: URLs; when the scatter chart drew nothing in its plot
// area, holds a number of points other than the designs of the page's own
// data (#plan-data), or has no coloured pixel where a design's point
// belongs, or no coloured pixel at either end of a design's error bar
// (utilization x (1 +- error_bar)); when the ranked table has a row count other than the designs';
// when the recommendation is not shown as the data has it; when the chosen
// design's bill of materials or bottlenecks, or the rejected designs, do
// not have one line per item of the data. Prints one line per file
// ("ok ..." or "FAIL <file>: <why>") and exits 1 on any failure.
import { OpenCheckedPage, RunPageChecks } from '../report/page_check.mjs';

// A pixel belongs to a drawn point or line when it is opaque enough and
// saturated (axes, grid lines and labels are grey).
const kMinAlpha = 128;
const kMinSaturation = 48;
// A point is a disc of 11 px: a coloured pixel within this many CSS pixels
// of its centre shows it drew.
const kPointRadiusPx = 2;

// Runs in the page: what the scatter chart drew. `saturated` counts the
// coloured pixels of its plot area; `points` is the number of data items of
// its per-kind series as ECharts holds them; `missing` lists the designs
// whose point position has no coloured pixel around it; `bars` counts the
// designs with an error bar and `unbarred` lists those with no coloured
// pixel at an end of it.
function MeasureScatter({minAlpha, minSaturation, radius}) {
  const div = document.querySelector('.chart[data-chart-name="Designs"]');
  if (!div) return null;
  const canvas = div.querySelector('canvas');
  if (!canvas || canvas.width === 0 || canvas.height === 0) return {saturated: 0, area: 0, points: 0, missing: []};
  const scale = canvas.width / canvas.clientWidth;
  const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const coloured = (x, y) => {
    if (x < 0 || y < 0 || x >= canvas.width || y >= canvas.height) return false;
    const i = 4 * (y * canvas.width + x);
    const r = pixels[i], g = pixels[i + 1], b = pixels[i + 2], a = pixels[i + 3];
    return a >= minAlpha && Math.max(r, g, b) - Math.min(r, g, b) >= minSaturation;
  };
  const [left, top, right, bottom] = div.dataset.plotInset.split(',').map(Number);
  const x0 = Math.round(left * scale), y0 = Math.round(top * scale);
  const x1 = Math.round(canvas.width - right * scale), y1 = Math.round(canvas.height - bottom * scale);
  let saturated = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (coloured(x, y)) saturated++;
  const result = {saturated, area: Math.max(0, (x1 - x0) * (y1 - y0)), points: 0, missing: [], bars: 0, unbarred: []};
  const chart = window.echarts && window.echarts.getInstanceByDom(div);
  if (!chart) return result;
  for (const s of chart.getOption().series) {
    if (String(s.id).startsWith('kind:')) result.points += s.data.length;
  }
  const designs = JSON.parse(document.getElementById('plan-data').textContent).designs;
  const drawnAt = (cost, utilization) => {
    const [px, py] = chart.convertToPixel({gridIndex: 0}, [cost, utilization]);
    const cx = Math.round(px * scale), cy = Math.round(py * scale), r = Math.ceil(radius * scale);
    for (let y = cy - r; y <= cy + r; y++) for (let x = cx - r; x <= cx + r; x++) if (coloured(x, y)) return true;
    return false;
  };
  designs.forEach((d, i) => {
    const u = 100 * d.effective_gpu_utilization;
    if (!drawnAt(d.cost_usd, u)) result.missing.push(`${i + 1} ${d.name}`);
    if (typeof d.error_bar !== 'number' || !(d.error_bar > 0)) return;
    result.bars++;
    if (!drawnAt(d.cost_usd, u * (1 - d.error_bar)) || !drawnAt(d.cost_usd, u * (1 + d.error_bar))) {
      result.unbarred.push(`${i + 1} ${d.name}`);
    }
  });
  return result;
}

// Runs in the page: the text of the sections the check compares with the data.
function ReadPage() {
  const rows = (selector) => [...document.querySelectorAll(selector)].map(
      (tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
  const recommendation = document.getElementById('recommendation');
  return {
    data: document.getElementById('plan-data').textContent,
    recommendation: recommendation ? recommendation.textContent : null,
    designRows: rows('#designs tbody tr'),
    billRows: rows('#bill tbody tr'),
    bottlenecks: [...document.querySelectorAll('#bottleneck-list li')].map((li) => li.textContent),
    rejectedRows: rows('#rejected tbody tr'),
  };
}

async function Check(browser, file) {
  const problems = [];
  const page = await OpenCheckedPage(browser, file, problems, 'chart');
  const scatter = await page.evaluate(MeasureScatter,
                                      {minAlpha: kMinAlpha, minSaturation: kMinSaturation, radius: kPointRadiusPx});
  const shown = await page.evaluate(ReadPage);
  await page.close();

  const data = JSON.parse(shown.data);
  const designs = data.designs || [];
  if (designs.length > 0) {
    if (scatter === null) {
      problems.push('no scatter chart');
    } else {
      // At least a point's worth of coloured pixels per design.
      if (scatter.saturated < 20 * designs.length) {
        problems.push(`scatter chart drew nothing (${scatter.saturated} coloured pixels in a plot of ${scatter.area})`);
      }
      if (scatter.points !== designs.length) {
        problems.push(`scatter chart holds ${scatter.points} points for ${designs.length} designs`);
      }
      if (scatter.missing.length > 0) {
        problems.push(`no point drawn where ${scatter.missing.length} design(s) belong: ${scatter.missing.slice(0, 5).join(', ')}`);
      }
      if (scatter.unbarred.length > 0) {
        problems.push(`no error bar drawn for ${scatter.unbarred.length} design(s): ${scatter.unbarred.slice(0, 5).join(', ')}`);
      }
    }
  }
  if (shown.designRows.length !== designs.length) {
    problems.push(`ranked table has ${shown.designRows.length} rows for ${designs.length} designs`);
  } else {
    designs.forEach((d, i) => {
      if (shown.designRows[i][1] !== d.name) problems.push(`table row ${i + 1} shows ${shown.designRows[i][1]}, expected ${d.name}`);
    });
  }
  if (typeof data.recommendation === 'string' && shown.recommendation !== data.recommendation) {
    problems.push(`recommendation shown as ${JSON.stringify(shown.recommendation)}`);
  }
  if (designs.length > 0) {
    const chosen = designs[0];
    const bill = chosen.bill_of_materials || [];
    if (shown.billRows.length !== bill.length) {
      problems.push(`bill of materials has ${shown.billRows.length} rows for ${bill.length} lines`);
    }
    const assumed = bill.filter((l) => l.price_assumed === true).length;
    const flagged = shown.billRows.filter((r) => r[8] === 'assumed (estimate)').length;
    if (assumed !== flagged) problems.push(`${flagged} bill lines flagged as assumed for ${assumed} in the data`);
    const workloads = chosen.workloads || [];
    if (shown.bottlenecks.length !== workloads.length) {
      problems.push(`${shown.bottlenecks.length} bottleneck lines for ${workloads.length} workloads`);
    }
    workloads.forEach((w, i) => {
      if (!String(shown.bottlenecks[i] || '').startsWith(w.name + ': ')) problems.push(`bottleneck ${i + 1} is not ${w.name}'s`);
    });
  }
  const rejected = data.rejected || [];
  if (shown.rejectedRows.length !== rejected.length) {
    problems.push(`rejected table has ${shown.rejectedRows.length} rows for ${rejected.length} rejected designs`);
  }
  if (problems.length > 0) {
    console.log(`FAIL ${file}: ${problems.join('; ')}`);
    return false;
  }
  console.log(`ok ${file}: ${designs.length} designs (${scatter ? scatter.saturated : 0} coloured px, ` +
              `${scatter ? scatter.bars : 0} error bars), ` +
              `${shown.billRows.length} bill lines, ${shown.bottlenecks.length} bottlenecks, ${rejected.length} rejected`);
  return true;
}

await RunPageChecks('usage: node check_plan.mjs PLAN.html...', Check);

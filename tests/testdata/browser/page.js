// The page side of the browser test (browser_page_test.go): defines
// window.goaccelTest, which the Go side calls through chromedp.Evaluate.
// A cell counts as finished once Notebook fires finished_execute.CodeCell for
// its last request, that is once its kernel went idle for it.
(() => {
  if (window.goaccelTest) { return true; }
  const nb = Jupyter.notebook;
  nb.events.on('finished_execute.CodeCell', (ev, d) => {
    d.cell.element[0].dataset.goaccelFinished = d.cell.last_msg_id;
  });
  const cellState = (i) => {
    const c = nb.get_cell(i);
    const el = c.element[0];
    const out = c.output_area ? c.output_area.element : $();
    const bold = out.find('#gobold');
    return {
      index: i,
      prompt: c.input_prompt_number === undefined ? null : c.input_prompt_number,
      running: el.classList.contains('running'),
      finished: !!c.last_msg_id && el.dataset.goaccelFinished === c.last_msg_id,
      outPrompt: out.find('.output_prompt').text(),
      gobold: bold.length ? bold[0].tagName + ':' + bold.text() : '',
      outputs: out.find('.output_subarea').map((_, o) => ({class: o.className, text: o.innerText})).get(),
      model: c.output_area ? c.output_area.toJSON() : null,
    };
  };
  window.goaccelTest = {
    kernel: () => {
      const k = nb.kernel;
      const info = k && k.info_reply;
      return {
        loaded: !!nb._fully_loaded,
        name: k ? k.name : '',
        connected: !!(k && k.is_connected()),
        // info_reply starts as {} and is replaced by the reply's content.
        ready: !!(info && info.protocol_version),
        info: info ? JSON.stringify(info).slice(0, 500) : '',
        language: info && info.language_info ? info.language_info.name : '',
        indicator: $('#kernel_indicator_icon').attr('class') || '',
        display: $('#kernel_indicator .kernel_indicator_name').text(),
        dialog: $('.modal-dialog:visible').text().trim().slice(0, 300),
      };
    },
    cells: (indices) => {
      if (!indices) { indices = nb.get_cells().map((_, i) => i); }
      return indices.filter((i) => nb.get_cell(i).cell_type === 'code').map(cellState);
    },
    // The index of the first code cell whose source contains text, or -1.
    cellWith: (text) => nb.get_cells().findIndex((c) => c.cell_type === 'code' && c.get_text().includes(text)),
    // A signature (length:hash of the markup) of each image output of cell i:
    // an <svg> or <img> inside an output_subarea.
    images: (i) => {
      const out = nb.get_cell(i).output_area.element;
      return out.find('.output_subarea').filter((_, o) => $(o).find('svg, img').length > 0).map((_, o) => {
        const h = o.innerHTML;
        let x = 0;
        for (let k = 0; k < h.length; k++) { x = (x * 31 + h.charCodeAt(k)) | 0; }
        return h.length + ':' + x;
      }).get();
    },
    // watchImages records the signature of every image cell i's outputs show
    // from their next change on, however briefly (a MutationObserver sees each update,
    // where polling can miss a redraw that a later one replaced); seenImages
    // returns them.
    watchImages: (i) => {
      const t = window.goaccelTest;
      const seen = new Set();
      t.seen[i] = seen;
      const record = () => { for (const s of t.images(i)) { seen.add(s); } };
      new MutationObserver(record).observe(nb.get_cell(i).output_area.element[0],
        {childList: true, subtree: true, characterData: true, attributes: true});
      return true;
    },
    seenImages: (i) => Array.from(window.goaccelTest.seen[i] || []),
    seen: {},
    appendAndRun: (src) => {
      const c = nb.insert_cell_at_bottom('code');
      c.set_text(src);
      c.execute();
      return nb.find_cell_index(c);
    },
  };
  return true;
})()

import json, ipywidgets as w
def st(x):
    s = x.get_state()
    for k in ("layout","style"):
        if k in s: s[k] = "IPY_MODEL_"
    if "children" in s: s["children"] = []
    return s
out = {}
for name, obj in [("IntSlider", w.IntSlider()), ("FloatSlider", w.FloatSlider()), ("Dropdown", w.Dropdown(options=["a","b"])),
    ("Checkbox", w.Checkbox()), ("Text", w.Text()), ("Button", w.Button()), ("FloatProgress", w.FloatProgress()),
    ("HTML", w.HTML()), ("Image", w.Image()), ("Output", w.Output()), ("HBox", w.HBox()), ("VBox", w.VBox()), ("Layout", w.Layout()),
    ("SliderStyle", w.widgets.widget_int.SliderStyle()), ("ButtonStyle", w.ButtonStyle()), ("ProgressStyle", w.widgets.widget_int.ProgressStyle()), ("DescriptionStyle", w.widgets.widget_description.DescriptionStyle()),
    ("CheckboxStyle", w.widgets.widget_bool.CheckboxStyle()), ("TextStyle", w.widgets.widget_string.TextStyle()), ("HTMLStyle", w.widgets.widget_string.HTMLStyle())]:
    s = st(obj)
    if name == "Image": s["value"] = "<bytes>"
    out[name] = s
print(json.dumps(out, indent=1, sort_keys=True))

package cli

import (
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ConfigMagic runs `%accelerate config [--config_file PATH] [key=value …]`:
// without assignments it shows the saved defaults; with them it sets those
// keys (starting from `goaccel config default` when no file exists), checks
// the result and saves it.
func ConfigMagic(args []string, out io.Writer) error {
	path := DefaultConfigFile()
	var sets []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--config_file" && i+1 < len(args):
			path = args[i+1]
			i++
		case strings.HasPrefix(a, "--config_file="):
			path = strings.TrimPrefix(a, "--config_file=")
		case strings.Contains(a, "=") && !strings.HasPrefix(a, "-"):
			sets = append(sets, a)
		default:
			return fmt.Errorf("%%accelerate config: %q is not key=value; keys: %s", a, strings.Join(ConfigKeys(), ", "))
		}
	}
	c, found, err := LoadConfig(path)
	if err != nil {
		return err
	}
	if len(sets) == 0 {
		if !found {
			fmt.Fprintf(out, "no configuration saved at %s yet: a launch uses one process per GPU (else one CPU process);\nset defaults with %%accelerate config num_processes=2 mixed_precision=bf16\n", path)
			return nil
		}
		b, _ := os.ReadFile(path)
		fmt.Fprintf(out, "%s:\n%s", path, b)
		return nil
	}
	if !found {
		c = BasicConfig("no", len(FindGPUs()))
	}
	for _, s := range sets {
		key, value, _ := strings.Cut(s, "=")
		if err := setKey(&c, strings.TrimSpace(key), strings.TrimSpace(value)); err != nil {
			return fmt.Errorf("%%accelerate config: %w", err)
		}
	}
	if err := SaveConfig(path, c); err != nil {
		return fmt.Errorf("%%accelerate config: %w", err)
	}
	b, _ := yaml.Marshal(c)
	fmt.Fprintf(out, "saved %s:\n%s", path, b)
	return nil
}

// ConfigKeys lists the keys of the configuration file, sorted.
func ConfigKeys() []string {
	t := reflect.TypeOf(Config{})
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i], _, _ = strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
	}
	sort.Strings(keys)
	return keys
}

// setKey sets the field whose YAML key is key from its text value.
func setKey(c *Config, key, value string) error {
	v := reflect.ValueOf(c).Elem()
	for i := 0; i < v.NumField(); i++ {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("yaml"), ",")
		if name != key {
			continue
		}
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(value)
		case reflect.Int:
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 {
				return fmt.Errorf("%s=%s: want a whole number ≥ 0", key, value)
			}
			f.SetInt(int64(n))
		case reflect.Bool:
			b, err := strconv.ParseBool(value)
			if err != nil {
				return fmt.Errorf("%s=%s: want true or false", key, value)
			}
			f.SetBool(b)
		}
		return nil
	}
	return fmt.Errorf("unknown key %q; keys: %s", key, strings.Join(ConfigKeys(), ", "))
}

# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the tests of tracectl report: the page's data, the JSON its
# script draws from (the element fxt-data).

# report_data HTML: that JSON, on standard output.
report_data() {
	python3 -c 'import sys; t = open(sys.argv[1]).read()
print(t.split("id=\"fxt-data\">")[1].split("</script>")[0])' "$1"
}

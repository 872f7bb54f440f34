resource "a" "b" {
  name = "{{ name }}"
  {% if x %}
  c = 1
  {% endif %}
}

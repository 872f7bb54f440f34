a = <<<EOT
x
EOT

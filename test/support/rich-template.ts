// An image sample's handle, shaped as Meta's Resumable Upload API issues them.
export const SAMPLE_HANDLE = '4::aW1hZ2UvanBlZw==:ARa1';

// Meta's custom marketing template: an image header, named body parameters, a URL button with a
// suffix, and a quick-reply button.
export const PROMO = {
  name: 'summer_sale',
  language: 'en_US',
  category: 'MARKETING',
  parameter_format: 'NAMED' as const,
  components: [
    { type: 'header', format: 'image', example: { header_handle: [SAMPLE_HANDLE] } },
    {
      type: 'body',
      text: 'Hi {{first_name}}, {{discount}} off everything until Sunday!',
      example: {
        body_text_named_params: [
          { param_name: 'first_name', example: 'Pablo' },
          { param_name: 'discount', example: '25%' },
        ],
      },
    },
    { type: 'footer', text: 'Reply STOP to opt out' },
    {
      type: 'buttons',
      buttons: [
        {
          type: 'url',
          text: 'Shop',
          url: 'https://shop.example/sale/{{1}}',
          example: ['https://shop.example/sale/s25'],
        },
        { type: 'quick_reply', text: 'Not interested' },
      ],
    },
  ],
};

/** PROMO with its image header's sample as another handle (one the server uploaded). */
export const withHeaderHandle = (template: typeof PROMO, handle: string): typeof PROMO => ({
  ...template,
  components: template.components.map((c) =>
    c.type === 'header' ? { ...c, example: { header_handle: [handle] } } : c,
  ) as typeof PROMO.components,
});

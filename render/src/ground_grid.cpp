#include "impetus/render/ground_grid.h"

#include <osg/Geode>
#include <osg/Geometry>
#include <osg/LineWidth>
#include <osg/Material>
#include <osg/PolygonOffset>

#include "impetus/render/scene_lighting.h"

#include <initializer_list>

namespace impetus::render {
namespace {

osg::ref_ptr<osg::Vec3Array> vec3s(std::initializer_list<osg::Vec3> points) {
  osg::ref_ptr<osg::Vec3Array> array = new osg::Vec3Array;
  for (const osg::Vec3& p : points) array->push_back(p);
  return array;
}

osg::ref_ptr<osg::Geometry> makeLines(const osg::ref_ptr<osg::Vec3Array>& vertices,
                                      const osg::Vec4& color, float width) {
  osg::ref_ptr<osg::Geometry> geometry = new osg::Geometry;
  geometry->setVertexArray(vertices);
  osg::ref_ptr<osg::Vec4Array> colors = new osg::Vec4Array(1, &color);
  geometry->setColorArray(colors, osg::Array::BIND_OVERALL);
  geometry->addPrimitiveSet(new osg::DrawArrays(GL_LINES, 0, static_cast<int>(vertices->size())));
  osg::StateSet* state = geometry->getOrCreateStateSet();
  state->setMode(GL_LIGHTING, osg::StateAttribute::OFF);  // lines keep their colour at any angle
  SceneLighting::markUnlit(*state);
  state->setAttributeAndModes(new osg::LineWidth(width));
  return geometry;
}

}  // namespace

osg::ref_ptr<osg::Node> makeGroundGrid(const GroundGridStyle& style) {
  const float e = static_cast<float>(style.halfExtent);
  const float lift = 0.002f;  // lines sit just above the plane so they never z-fight it

  // Lit plane: a single quad with an upward normal and a diffuse material.
  osg::ref_ptr<osg::Geometry> plane = new osg::Geometry;
  plane->setVertexArray(vec3s({{-e, -e, 0}, {e, -e, 0}, {e, e, 0}, {-e, e, 0}}));
  plane->setNormalArray(vec3s({{0, 0, 1}}), osg::Array::BIND_OVERALL);
  plane->addPrimitiveSet(new osg::DrawArrays(GL_QUADS, 0, 4));
  osg::ref_ptr<osg::Material> material = new osg::Material;
  material->setDiffuse(osg::Material::FRONT_AND_BACK, style.planeColor);
  material->setAmbient(osg::Material::FRONT_AND_BACK, style.planeColor * 0.6f);
  plane->getOrCreateStateSet()->setAttributeAndModes(material);
  plane->getOrCreateStateSet()->setAttributeAndModes(new osg::PolygonOffset(1.0f, 1.0f));

  osg::ref_ptr<osg::Vec3Array> grid = new osg::Vec3Array;
  const int n = static_cast<int>(style.halfExtent / style.spacing);
  for (int i = -n; i <= n; ++i) {
    const float c = static_cast<float>(i * style.spacing);
    if (i != 0) {
      grid->push_back({c, -e, lift});
      grid->push_back({c, e, lift});
      grid->push_back({-e, c, lift});
      grid->push_back({e, c, lift});
    } else {  // the negative half-axes are ordinary grid lines
      grid->push_back({0, -e, lift});
      grid->push_back({0, 0, lift});
      grid->push_back({-e, 0, lift});
      grid->push_back({0, 0, lift});
    }
  }
  osg::ref_ptr<osg::Vec3Array> xAxis = vec3s({{0, 0, 2 * lift}, {e, 0, 2 * lift}});
  osg::ref_ptr<osg::Vec3Array> yAxis = vec3s({{0, 0, 2 * lift}, {0, e, 2 * lift}});

  osg::ref_ptr<osg::Geode> geode = new osg::Geode;
  geode->setName("ground_grid");
  geode->addDrawable(plane);
  geode->addDrawable(makeLines(grid, style.lineColor, 1.0f));
  geode->addDrawable(makeLines(xAxis, style.xAxisColor, 3.0f));
  geode->addDrawable(makeLines(yAxis, style.yAxisColor, 3.0f));
  return geode;
}

}  // namespace impetus::render
